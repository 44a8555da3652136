import type { FastifyBaseLogger } from 'fastify';
import { egressRefusal, guardedLookup } from '../../../platform/egress.ts';
import type { LiveRoom } from '../live-room.ts';
import { Restream, redactRtmpUrl, relayStartOf } from './restream.ts';

type RestreamingRoom = Pick<LiveRoom, 'relay' | 'splitter' | 'restream' | 'restreamGeneration'>;

/**
 * A pro owner's stream with an RTMP URL is restreamed there while the publisher is connected
 * here: a (re)connecting publisher gets a new ffmpeg, once the previous one has let go. The plan
 * is checked again now, as the owner may have left Pro since creating the stream. Failures are
 * logged and never affect publishing. `allowedHosts`: RESTREAM_ALLOWED_HOSTS.
 */
export async function startRestream(
  roomName: string,
  room: RestreamingRoom,
  target: { rtmpUrl: string | null; plan: string } | undefined,
  log: FastifyBaseLogger,
  allowedHosts: string[],
): Promise<void> {
  const previous = stopRestream(room);
  const generation = room.restreamGeneration;
  if (target?.rtmpUrl && target.plan !== 'pro') {
    log.info({ roomName }, 'not restreaming: the owner is no longer on the Pro plan');
  }
  const rtmpUrl = target?.plan === 'pro' ? target.rtmpUrl : null;
  if (!rtmpUrl || !room.splitter) return;
  // Again now: the URL's host may resolve elsewhere than when it was saved.
  const refusal = await egressRefusal(rtmpUrl, allowedHosts);
  if (refusal) {
    log.warn({ roomName, target: redactRtmpUrl(rtmpUrl), refusal }, 'not restreaming: target refused');
    return;
  }
  if (room.restreamGeneration !== generation || !room.splitter) return;
  room.restream = new Restream({
    roomName,
    rtmpUrl,
    log,
    resume: () => relayStartOf(room.relay.snapshot()),
    after: previous,
    // Every (re)connection resolves the host again and refuses private addresses then.
    lookup: guardedLookup(allowedHosts),
  });
}

/** Stops the room's restream (if any) and makes any restream lookup in flight stale. */
export function stopRestream(room: RestreamingRoom): Promise<void> {
  room.restreamGeneration += 1;
  const restream = room.restream;
  room.restream = undefined;
  return restream ? restream.stop() : Promise.resolve();
}
