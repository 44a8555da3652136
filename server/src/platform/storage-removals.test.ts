import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { eventually } from '../test/eventually.ts';
import { freePort } from '../test/ports.ts';
import { type S3Server, startS3Server } from '../test/s3-server.ts';
import { buildTestApp, createTestDatabase, signUp, type TestApp } from '../test/test-app.ts';
import { s3Storage } from './storage.ts';

/**
 * A deleted account's files leave storage even when storage is away at that moment (ADR 0020):
 * instance A, whose S3 endpoint refuses every connection, deletes the account; its files are
 * queued in the same transaction and A keeps retrying; A stops, and instance B on the same
 * database, with the real S3, removes them. Before, A logged the failure and the files stayed.
 */

let s3: S3Server;
let database: Database;
let a: TestApp | undefined;
let b: TestApp | undefined;

beforeAll(async () => {
  [s3, database] = await Promise.all([startS3Server(), createTestDatabase()]);
}, 60_000);
afterAll(async () => {
  await Promise.allSettled([a?.close(), b?.close()]);
  await database?.close();
  await s3?.stop();
});

const queued = async () =>
  (
    await database.pool.query<{ key: string; attempts: number; last_error: string | null }>(
      'select key, attempts, last_error from storage_removals order by key',
    )
  ).rows;

describe('files of a deleted account', () => {
  it('are removed once storage answers, by another instance after a restart', async () => {
    const refused = await freePort(); // nothing listens there: every S3 call is refused
    a = await buildTestApp(
      { s3: { ...s3.settings, endpoint: `http://127.0.0.1:${refused}` } },
      { database, storageRemovalIntervalMs: 200, autoEnd: false, paymentJobs: false },
    );
    const seller = await signUp(a.app);
    const call = (method: 'POST' | 'PATCH', url: string, payload: unknown) =>
      a?.app.inject({ method, url, payload: payload as object, headers: { cookie: seller.cookie } });

    // What storage holds of the seller: a room's recording and an avatar (put there directly).
    const roomName = (await call('POST', '/api/rooms', { title: 'Gone with the account' }))?.json().roomName;
    const avatar = `uploads/${randomUUID()}.webp`;
    const storage = s3Storage(s3.settings);
    for (const key of [`hls/${roomName}/index.m3u8`, `hls/${roomName}/seg-1-00001.m4s`, avatar]) {
      await storage.put(key, Buffer.from('#EXTM3U\n'), 'application/octet-stream');
    }
    // The avatar is the seller's own upload (an upload's owner is recorded when it is made).
    await database.pool.query('insert into uploads (key, owner_id) values ($1, $2)', [
      avatar,
      seller.user.id,
    ]);
    expect(
      (await call('PATCH', '/api/account/profile', { profileImageUrl: `/media/${avatar}` }))?.statusCode,
    ).toBe(200);

    const deleted = await call('POST', '/api/account/delete', { password: seller.password });
    expect(deleted?.statusCode, deleted?.body).toBe(200);

    // Tried, refused, kept for a retry; nothing is gone from storage.
    const waiting = await eventually(
      'A tried to remove both and failed',
      queued,
      (rows) => rows.length === 2 && rows.every((row) => row.attempts >= 1 && row.last_error !== null),
    );
    expect(waiting.map((row) => row.key)).toEqual([`hls/${roomName}/`, avatar].sort());
    expect((await storage.list(`hls/${roomName}/`)).length).toBe(2);
    expect(await storage.list(avatar)).toEqual([avatar]);

    await a.close();
    a = undefined;
    b = await buildTestApp(
      { s3: s3.settings },
      { database, storageRemovalIntervalMs: 200, autoEnd: false, paymentJobs: false },
    );
    // The retry is due (as it would be after its backoff): B takes it.
    await database.pool.query('update storage_removals set next_attempt_at = now()');
    await eventually('B removed them', queued, (rows) => rows.length === 0);
    expect(await storage.list(`hls/${roomName}/`)).toEqual([]);
    expect(await storage.list(avatar)).toEqual([]);
  }, 60_000);
});
