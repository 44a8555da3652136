/**
 * The demo's ended stream: a shoppable replay with three product chapters and a chat replay, so
 * a newcomer sees the core of the product at once. Its video (a generated clip as HLS segments)
 * is made by the media module at start when storage lacks it (MediaService.ensureDemoReplay).
 */

import { hlsPath, REPLAY_PLAYLIST } from '@streamshop/contract/live.ts';
import type { Tx } from '../../db/client.ts';
import { DAY_MS } from './catalogue.ts';
import { insertDemoStream } from './store.ts';

export const DEMO_REPLAY_ROOM = 'demo-vinyl-night';
/** Seconds of video; each chapter is a third of it. */
export const DEMO_REPLAY_SECONDS = 30;
export const DEMO_REPLAY_THUMBNAIL = 'thumb-demo.jpg';
const SELLER = 'juno_beats';

const CHAT: Array<[number, string, string]> = [
  [1, 'juno_beats', 'Welcome to vinyl night! Three records tonight, first one is pinned now.'],
  [4, 'crate_digger', 'That sleeve is gorgeous'],
  [8, 'ana_r', 'Is the vinyl itself in good shape?'],
  [9, 'juno_beats', 'Played twice, no scratches. Checked it under the light this morning.'],
  [12, 'juno_beats', 'Next up: something for the deep listeners.'],
  [16, 'marcus_l', 'Grabbing this one!'],
  [22, 'juno_beats', 'Last record of the night, pinned below.'],
  [27, 'crate_digger', 'Great stream, thanks!'],
];

/** The ended stream, its lineup and pins (the chapters) and its chat, for the seller's records. */
export async function insertDemoReplay(tx: Tx, sellerIds: Map<string, string>, now: number): Promise<void> {
  const sellerId = sellerIds.get(SELLER);
  if (!sellerId) throw new Error(`seed: missing seller ${SELLER}`);
  const startedAt = new Date(now - 2 * DAY_MS);
  await insertDemoStream(tx, {
    sellerId,
    roomName: DEMO_REPLAY_ROOM,
    title: 'Vinyl night: three records from the crate',
    description: 'A short replay from the demo: each record is a chapter, and Buy Now works from the video.',
    startedAt,
    seconds: DEMO_REPLAY_SECONDS,
    vodUrl: hlsPath(DEMO_REPLAY_ROOM, REPLAY_PLAYLIST),
    thumbnailUrl: hlsPath(DEMO_REPLAY_ROOM, DEMO_REPLAY_THUMBNAIL),
    viewCount: 128,
    chapters: 3,
    chat: CHAT.map(([second, username, message]) => ({
      at: new Date(startedAt.getTime() + second * 1000),
      username,
      userId: username === SELLER ? sellerId : null,
      message,
    })),
  });
}

/** The always-live demo room (DEMO_LIVE): its stream row is written at start by the media module. */
export const DEMO_LIVE_STREAM = {
  roomName: 'demo-live-crate-digging',
  ownerHandle: SELLER,
  title: 'Crate digging, live all day (demo)',
  description: 'A demo room that is always live: the video loops, the products are real demo listings.',
};
