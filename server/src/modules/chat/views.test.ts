import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectChat } from '../../test/chat-client.ts';
import { buildTestApp, listenOnLoopback, signUp, type TestApp } from '../../test/test-app.ts';

const LIMIT = 6;
let t: TestApp;
let base: string;
let seller: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  t = await buildTestApp({ socketsPerAddress: LIMIT }, { autoEnd: false, viewerSampling: false });
  base = await listenOnLoopback(t.app);
  seller = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
});

async function newRoom(): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rooms',
    headers: { cookie: seller.cookie },
    payload: { title: 'Views room' },
  });
  return created.json().roomName;
}

const viewsOf = async (room: string) =>
  (await t.app.inject({ url: `/api/streams/${room}` })).json().viewCount;

async function visit(room: string, cookie?: string) {
  const client = await connectChat(base, room, cookie);
  await client.next('chat_history');
  client.socket.close();
  await client.closed;
}

describe('view counts', () => {
  it('count a signed-out viewer who reconnects 15 times once', async () => {
    const room = await newRoom();
    for (let i = 0; i < 15; i++) await visit(room);
    expect(await viewsOf(room)).toBe(1);
  });

  it('count each signed-in viewer once, apart from the address', async () => {
    const room = await newRoom();
    const [a, b] = [await signUp(t.app), await signUp(t.app)];
    for (const viewer of [a, b, a, b, a]) await visit(room, viewer.cookie);
    expect(await viewsOf(room)).toBe(2);
  });

  it('count a viewer again once the window has passed, and never store the address', async () => {
    const room = await newRoom();
    await visit(room);
    await t.database.pool.query(
      `update stream_views set counted_at = now() - interval '31 minutes'
       where stream_id = (select id from streams where room_name = $1)`,
      [room],
    );
    await visit(room);
    expect(await viewsOf(room)).toBe(2);
    const { rows } = await t.database.pool.query('select viewer_key from stream_views');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.viewer_key).not.toContain('127.0.0.1');
  });
});

describe('open sockets per address', () => {
  const open = (url: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`refused ${response.statusCode}`)),
      );
      socket.once('error', reject);
    });

  it('refuses one more than the cap with 429 (chat and video alike), and admits again after a close', async () => {
    const room = await newRoom();
    const sockets: WebSocket[] = [];
    for (let i = 0; i < LIMIT; i++)
      sockets.push(await open(`${base}/${i % 2 ? 'ws/media' : 'ws'}?room=${room}`));
    await expect(open(`${base}/ws?room=${room}`)).rejects.toThrow('refused 429');
    await expect(open(`${base}/ws/media?room=${room}`)).rejects.toThrow('refused 429');
    const first = sockets.shift();
    const closed = new Promise((resolve) => first?.once('close', resolve));
    first?.close();
    await closed;
    // The server sees the close a moment later: retry until it has.
    let admitted: WebSocket | undefined;
    for (let attempt = 0; attempt < 50 && !admitted; attempt++) {
      admitted = await open(`${base}/ws?room=${room}`).catch(
        () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 20)),
      );
    }
    expect(admitted).toBeDefined();
    for (const socket of [...sockets, admitted]) socket?.close();
  });
});
