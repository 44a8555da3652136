import { LIVE_PLAYLIST } from '@streamshop/contract/live.ts';
import { ROOM_NAME_PATTERN } from '@streamshop/contract/room-name.ts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { AppError, badRequest, notFound } from '../../../../platform/errors.ts';
import type { Storage } from '../../../../platform/storage.ts';
import { hlsKey, storedPlaylistText } from '../../pipeline/hls-recorder.ts';
import { PART_TARGET_SEC } from '../../pipeline/segmenter.ts';
import type { LiveEdges } from './edges.ts';
import { holds, renderLowLatency, targetDuration, tooFarAhead } from './ll-playlist.ts';

/** A stream's HLS file names: playlists, init segments, segments, parts and thumbnails. */
const HLS_FILE = /^[a-z0-9-]{1,80}\.(m3u8|mp4|m4s|jpg)$/;
const HLS_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  mp4: 'video/mp4',
  m4s: 'video/iso.segment',
  jpg: 'image/jpeg',
};
/** A request for the preload hint is held at most this long for the part to be made. */
const HINT_WAIT_MS = Math.round(3 * PART_TARGET_SEC * 1000);
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** `_HLS_msn` and `_HLS_part` of a blocking playlist reload (RFC 8216bis 6.2.5.2), checked. */
function blockingRequest(
  query: Record<string, string | undefined>,
): { msn: number; part?: number } | undefined {
  const number = (field: '_HLS_msn' | '_HLS_part') => {
    const raw = query[field];
    if (raw === undefined) return undefined;
    if (!/^\d{1,9}$/.test(raw))
      throw badRequest(`${field} must be a whole number`, { [field]: 'not a whole number' });
    return Number(raw);
  };
  const msn = number('_HLS_msn');
  const part = number('_HLS_part');
  if (msn === undefined) {
    if (part !== undefined) throw badRequest('_HLS_part needs _HLS_msn', { _HLS_msn: 'missing' });
    return undefined;
  }
  return part === undefined ? { msn } : { msn, part };
}

export const hlsRoutes: FastifyPluginAsync<{ storage: Storage; edges: LiveEdges }> = async (
  app,
  { storage, edges },
) => {
  /**
   * The live playlist: the low-latency edge (parts, preload hint, blocking reloads) while an
   * instance publishes the stream, else the live window as stored (segments only).
   */
  async function livePlaylist(room: string, query: Record<string, string | undefined>, reply: FastifyReply) {
    const blocking = blockingRequest(query);
    let model = edges.known(room);
    let stored: Buffer | undefined;
    if (!model) {
      // Only a room with a live window in storage is worth following (a name never streamed: 404 now).
      stored = await storedPlaylistText(storage, hlsKey(room, LIVE_PLAYLIST));
      if (!stored) throw notFound('No such media file');
      model = await edges.edge(room);
    }
    if (model && blocking) {
      const { msn, part } = blocking;
      if (tooFarAhead(model, msn, part)) {
        throw badRequest('That part of the live playlist is too far ahead', { _HLS_msn: 'too far ahead' });
      }
      model = await edges.edge(room, (edge) => holds(edge, msn, part), 3 * targetDuration(model) * 1000);
      if (model && !holds(model, msn, part)) {
        throw new AppError(
          503,
          'SERVICE_UNAVAILABLE',
          'The live playlist did not reach that part in time.',
          undefined,
          {
            'retry-after': '1',
          },
        );
      }
    }
    if (model) {
      // Per query string: a blocking answer holds what was asked for, so a CDN may keep it a while.
      const cache = blocking
        ? 'public, max-age=0, s-maxage=6'
        : 'public, max-age=0, s-maxage=1, must-revalidate';
      return reply.header('cache-control', cache).send(renderLowLatency(model));
    }
    const playlist = stored ?? (await storedPlaylistText(storage, hlsKey(room, LIVE_PLAYLIST)));
    if (!playlist) throw notFound('No such media file');
    return reply.header('cache-control', 'public, max-age=0, s-maxage=1, must-revalidate').send(playlist);
  }

  /**
   * A stream's HLS files, from storage (so every instance serves every stream); the live edge's
   * parts and newest segments from the publisher's instance's memory or their parts until
   * storage has them. Playlists change while live and are cached for a second at most;
   * everything else never changes once written, so a CDN in front may keep it for good.
   */
  app.get<{ Params: { room: string; file: string }; Querystring: Record<string, string | undefined> }>(
    '/media/hls/:room/:file',
    async (request, reply) => {
      const { room, file } = request.params;
      const extension = HLS_FILE.exec(file)?.[1];
      if (!extension || !ROOM_NAME_PATTERN.test(room)) throw notFound('No such media file');
      reply.header('x-content-type-options', 'nosniff').type(HLS_TYPES[extension] as string);
      if (file === LIVE_PLAYLIST) return livePlaylist(room, request.query, reply);
      if (extension === 'm3u8') {
        // Replaced while live: read whole, so a viewer never gets one cut short.
        const playlist = await storedPlaylistText(storage, hlsKey(room, file));
        if (!playlist) throw notFound('No such media file');
        return reply.header('cache-control', 'public, max-age=0, s-maxage=1, must-revalidate').send(playlist);
      }
      const edgeFile = extension === 'jpg' ? undefined : await edges.file(room, file, HINT_WAIT_MS);
      if (edgeFile) {
        return reply
          .header('cache-control', IMMUTABLE)
          .header('content-length', edgeFile.length)
          .send(edgeFile);
      }
      const object = await storage.get(hlsKey(room, file));
      if (object) {
        return reply
          .header('cache-control', IMMUTABLE)
          .header('content-length', object.size)
          .send(object.body);
      }
      const joined = extension === 'm4s' ? await edges.joinedSegment(room, file) : undefined;
      if (!joined) throw notFound('No such media file');
      return reply.header('cache-control', IMMUTABLE).header('content-length', joined.length).send(joined);
    },
  );
};
