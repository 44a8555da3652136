import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildTestApp, listenOnLoopback, signUp, type TestApp } from '../../test/test-app.ts';

/**
 * A viewer who opens the room while the seller ends the stream is told it ended, on the chat socket
 * and on the video socket alike: the end's message may go out before the new socket hears the
 * room, so a socket reads the stream's state after it starts listening, not only before.
 */

let t: TestApp;
let base: string;
let owner: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false });
  base = await listenOnLoopback(t.app);
  owner = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
});

async function liveRoom(): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rooms',
    headers: { cookie: owner.cookie },
    payload: { title: 'Ends while viewers join' },
  });
  const room = created.json().roomName as string;
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/streams/${room}/start`,
    headers: { cookie: owner.cookie },
  });
  expect(started.statusCode).toBe(200);
  return room;
}

/** A socket that resolves `ended` when the server says stream_ended, or with false when it closes without. */
function viewer(path: string) {
  const socket = new WebSocket(`${base}${path}`);
  const ended = new Promise<boolean>((resolve) => {
    socket.on('message', (data, isBinary) => {
      if (!isBinary && (JSON.parse(data.toString()) as { type: string }).type === 'stream_ended')
        resolve(true);
    });
    socket.once('close', () => resolve(false));
    socket.once('error', () => resolve(false));
  });
  return { socket, ended };
}

it('tells every socket that joins while the stream ends that it ended', { timeout: 60_000 }, async () => {
  const missed: string[] = [];
  for (let round = 0; round < 6; round += 1) {
    const room = await liveRoom();
    // Sockets open one after another while the end lands, each at a different point of joining.
    const viewers: Array<ReturnType<typeof viewer>> = [];
    const opening = (async () => {
      for (let i = 0; i < 24; i += 1) {
        viewers.push(viewer(i % 2 === 0 ? `/ws?room=${room}` : `/ws/media?room=${room}`));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 5 + round * 4));
    const ended = await t.app.inject({
      method: 'POST',
      url: `/api/streams/${room}/end`,
      headers: { cookie: owner.cookie },
    });
    expect(ended.statusCode).toBe(200);
    await opening;
    const told = await Promise.all(
      viewers.map((v) =>
        Promise.race([v.ended, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000))]),
      ),
    );
    told.forEach((ok, i) => {
      if (!ok) missed.push(`round ${round}, ${i % 2 === 0 ? 'chat' : 'video'} socket ${i}`);
    });
    for (const v of viewers) v.socket.close();
  }
  expect(missed).toEqual([]);
});
