import { CloseCode } from '@streamshop/contract/live.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChat } from '../test/chat-client.ts';
import { buildTestApp, listenOnLoopback, signUp, type TestApp } from '../test/test-app.ts';
import { redisBus } from './bus.ts';

/** Long enough that only an announcement (not the recheck) can close a socket within a test. */
const NO_RECHECK = 3_600_000;
let t: TestApp;
let base: string;
let room: string;
beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, viewerSampling: false, sessionRecheckMs: NO_RECHECK });
  base = await listenOnLoopback(t.app);
  const seller = await signUp(t.app);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rooms',
    headers: { cookie: seller.cookie },
    payload: { title: 'Sign-out room' },
  });
  room = created.json().roomName;
});
afterAll(async () => {
  await t.close();
});

async function chatAs(cookie: string, url = base) {
  const client = await connectChat(url, room, cookie);
  await client.next('chat_history');
  return client;
}

describe('a signed-in socket ends with its session', () => {
  it('is closed (4001) by POST /api/auth/logout, and a signed-out socket of the same browser lives on', async () => {
    const user = await signUp(t.app);
    const socket = await chatAs(user.cookie);
    const anonymous = await connectChat(base, room);
    await anonymous.next('chat_history');
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: user.cookie },
    });
    expect(logout.statusCode).toBe(200);
    expect(await socket.closed).toBe(CloseCode.signedOut);
    anonymous.send({ type: 'chat_message', message: 'still here' });
    expect(anonymous.socket.readyState).toBe(anonymous.socket.OPEN);
    anonymous.socket.close();
  });

  it('is closed by the drawer’s Sign Out navigation', async () => {
    const user = await signUp(t.app);
    const socket = await chatAs(user.cookie);
    await t.app.inject({
      url: '/api/logout',
      headers: { cookie: user.cookie, 'sec-fetch-dest': 'document', 'sec-fetch-site': 'same-origin' },
    });
    expect(await socket.closed).toBe(CloseCode.signedOut);
  });

  it('is closed by the recheck when the session is gone without a sign-out (expired, deleted)', async () => {
    const quick = await buildTestApp({}, { database: t.database, autoEnd: false, sessionRecheckMs: 50 });
    try {
      const url = await listenOnLoopback(quick.app);
      const user = await signUp(quick.app);
      const socket = await chatAs(user.cookie, url);
      await t.database.pool.query(
        `update sessions set expires_at = now() - interval '1 second' where user_id = $1`,
        [user.user.id],
      );
      expect(await socket.closed).toBe(CloseCode.signedOut);
    } finally {
      await quick.close();
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('two instances through Redis', () => {
  it('a sign-out on one instance closes the socket on the other at once', async () => {
    const prefix = `test-${Math.random().toString(36).slice(2)}:`;
    const buses = [redisBus(redisUrl ?? '', prefix), redisBus(redisUrl ?? '', prefix)];
    const instances = await Promise.all(
      buses.map((bus) =>
        buildTestApp(
          { sessionSecret: t.config.sessionSecret },
          { database: t.database, autoEnd: false, bus, sessionRecheckMs: NO_RECHECK },
        ),
      ),
    );
    try {
      const [first, second] = instances;
      if (!first || !second) throw new Error('no instances');
      const url = await listenOnLoopback(second.app);
      const user = await signUp(first.app);
      const socket = await chatAs(user.cookie, url);
      await first.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: user.cookie } });
      expect(await socket.closed).toBe(CloseCode.signedOut);
    } finally {
      for (const instance of instances) await instance.close();
      for (const bus of buses) await bus.close();
    }
  });
});
