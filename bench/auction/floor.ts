/**
 * The floor, in the same run: two plain `ws` servers (the chat bench's floor, bench/chat/server.ts,
 * in relay mode: every frame a client sends goes as it came to every socket), the same number of
 * viewers split over them, and the auction run's auction_bid messages sent again at the same
 * moments (relative to the first) with the same sizes. Each copy's serverNow is its send time, so
 * the viewers measure it exactly as they measured the app's.
 */
import type WebSocket from 'ws';
import { type ServerHandle, startServer } from '../chat/server.ts';
import { closeSockets, joinRoom, sleep, waitFor } from '../support.ts';
import {
  type Audience,
  allDelivered,
  closeViewers,
  type FanoutFigures,
  fanoutFigures,
  joinViewers,
} from './viewers.ts';

/**
 * The frames one viewer of the app run got (`timeline`, duplicates included: the app sends a
 * version again when two bids published the same view) sent to the floor at the same pace;
 * `versions` distinct versions among them.
 */
export async function runFloor(
  timeline: Audience['timeline'],
  versions: number,
  viewers: number,
): Promise<FanoutFigures> {
  const servers: ServerHandle[] = [];
  let audience: Audience | undefined;
  let senders: WebSocket[] = [];
  try {
    for (const name of ['floor A', 'floor B'])
      servers.push(await startServer({ kind: 'floor', encodeOnce: false, relay: true }, name));
    const urls = servers.map((s) => `${s.url}/ws?room=floor`);
    audience = await joinViewers(urls, viewers);
    senders = await Promise.all(urls.map((url) => joinRoom(url, { onFrame: () => undefined })));
    await sleep(500);
    const start = performance.now();
    const origin = timeline[0]?.at ?? 0;
    for (const message of timeline) {
      const wait = start + (message.at - origin) - performance.now();
      if (wait > 1) await sleep(wait);
      // The same length: an ISO time is always 24 characters.
      const text = message.text.replace(/"serverNow":"[^"]*"/, `"serverNow":"${new Date().toISOString()}"`);
      for (const sender of senders) sender.send(text);
    }
    const watching = audience;
    const drained = await waitFor(
      () => watching.heard.size === versions && allDelivered(watching),
      30_000,
      50,
    );
    if (!drained) console.warn('  !! floor: not every delivery arrived within 30 s of the last send');
    const figures = fanoutFigures(audience);
    const expected = versions * viewers;
    return { ...figures, messages: versions, expected, lost: expected - figures.delivered };
  } finally {
    await closeSockets(senders);
    await closeViewers(audience);
    await Promise.all(servers.map((s) => s.stop()));
  }
}
