import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatMessage } from '@streamshop/contract/live.ts';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { type ChatClient, connectChat } from '../../test/chat-client.ts';
import { eventually } from '../../test/eventually.ts';
import { seedDataDirFromTemplate } from '../../test/pglite-template.ts';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { newAccount } from '../../test/test-app.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../test/throwaway-database.ts';

/**
 * Issue 18, "chat waits on the database write": a message is broadcast once it is accepted and
 * saved after (ADR 0019). Real server processes; the database is held by locking the messages
 * table from another connection (PostgreSQL), and a server is killed with SIGKILL right after it
 * delivered. The invariant: no message accepted (delivered) and then lost, none saved twice.
 */

/** '' in the PGlite project, the server's URL in the PostgreSQL one. */
const databaseServerUrl = process.env.TEST_DATABASE_URL ?? '';
const onPostgres = databaseServerUrl !== '';

const servers: ServerProcess[] = [];
const sockets: ChatClient[] = [];
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(() => {
  for (const client of sockets.splice(0)) client.socket.terminate();
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function start(env: Record<string, string>, dataDir: string): Promise<ServerProcess> {
  const server = await startServerProcess({ env, dataDir, stdio: 'ignore' });
  servers.push(server);
  return server;
}

async function signUpAt(base: string) {
  const account = newAccount();
  const response = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (response.status !== 201) throw new Error(`sign-up: ${response.status} ${await response.text()}`);
  const cookie = /(sid=[^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error('no session cookie');
  return { handle: account.handle, cookie };
}

async function createRoomAt(base: string, cookie: string): Promise<string> {
  const response = await fetch(`${base}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ title: 'Held chat' }),
  });
  if (response.status !== 201) throw new Error(`create room: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { roomName: string }).roomName;
}

async function join(base: string, room: string, cookie?: string): Promise<ChatClient> {
  const client = await connectChat(base.replace('http', 'ws'), room, cookie);
  sockets.push(client);
  return client;
}

/** What a socket that joins now is given as the room's history. */
async function historyTexts(base: string, room: string): Promise<string[]> {
  const client = await join(base, room);
  const history = await client.next('chat_history');
  client.socket.terminate();
  return history.messages.map((message) => message.message);
}

async function replayTexts(base: string, room: string): Promise<string[]> {
  const response = await fetch(`${base}/api/streams/${room}/chat-replay`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { messages: Array<{ message: string }> };
  return body.messages.map((message) => message.message);
}

const count = (texts: string[], text: string) => texts.filter((t) => t === text).length;

/** Sends each text and waits until `watcher` got it; returns what the watcher got. */
async function sendAll(sender: ChatClient, watcher: ChatClient, texts: string[]): Promise<ChatMessage[]> {
  for (const text of texts) sender.send({ type: 'chat_message', message: text });
  const seen: ChatMessage[] = [];
  for (const text of texts) seen.push(await watcher.next('chat_message', (m) => m.message === text));
  return seen;
}

/** The rows of these texts in chat_messages (a read, which the table lock below does not block). */
async function storedRows(client: pg.Client, texts: string[]): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    'select count(*)::int as n from chat_messages where message = any($1)',
    [texts],
  );
  return rows[0]?.n ?? 0;
}

/** The embedded database of a stopped server's DATA_DIR, opened here, as a client to query. */
async function openPglite(dataDir: string) {
  const database = await openDatabase({ dataDir });
  return {
    query: <R extends pg.QueryResultRow>(text: string, values: unknown[]) =>
      database.pool.query<R>(text, values),
    end: () => database.close(),
  };
}

/** A second connection holds the messages table: writes to it wait, reads go through. */
async function holdMessagesTable(url: string): Promise<{ release(): Promise<void>; client: pg.Client }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query('lock table chat_messages in exclusive mode');
  return {
    client,
    async release() {
      await client.query('commit');
      await client.end();
    },
  };
}

/**
 * SIGKILL, and on PostgreSQL (the table held) the dead server's insert, which still waits for the
 * table, ended as a crash of its connection would end it: nothing of it is committed.
 */
async function killMidWrite(server: ServerProcess, lock: { client: pg.Client } | undefined) {
  const exited = new Promise((resolve) => server.proc.once('exit', resolve));
  server.proc.kill('SIGKILL');
  await exited;
  if (!lock) return;
  const waiting = `from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`;
  await lock.client.query(`select pg_terminate_backend(pid) ${waiting}`);
  await eventually(
    'the dead server’s statement ended',
    async () => (await lock.client.query<{ n: number }>(`select count(*)::int as n ${waiting}`)).rows[0]?.n,
    (n) => n === 0,
  );
}

describe.skipIf(!onPostgres)('chat while PostgreSQL holds the messages table', () => {
  let database: ThrowawayDatabase;
  let server: ServerProcess;
  let reader: pg.Client;

  beforeAll(async () => {
    database = await createThrowawayDatabase(databaseServerUrl, 'chatheld');
    cleanups.push(() => database.drop());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ss-chat-held-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    server = await start({ DATABASE_URL: database.url }, dataDir);
    reader = new pg.Client({ connectionString: database.url });
    await reader.connect();
    cleanups.push(() => reader.end());
  }, 120_000);

  it('delivers at once and saves each message once when the table is free again', async () => {
    const host = await signUpAt(server.url);
    const fan = await signUpAt(server.url);
    const room = await createRoomAt(server.url, host.cookie);
    const sender = await join(server.url, room, fan.cookie);
    const watcher = await join(server.url, room);
    await sender.next('chat_history');
    await watcher.next('chat_history');
    const texts = ['held one', 'held two', 'held three'];

    const lock = await holdMessagesTable(database.url);
    try {
      const seen = await sendAll(sender, watcher, texts);
      expect(new Set(seen.map((m) => m.id)).size).toBe(3);
      // Delivered while none of them could be written.
      expect(await storedRows(reader, texts)).toBe(0);
      // A socket that joins meanwhile gets them in the room's history.
      expect(await historyTexts(server.url, room)).toEqual(texts);
    } finally {
      await lock.release();
    }

    await eventually(
      'all three saved',
      () => storedRows(reader, texts),
      (n) => n === 3,
    );
    const { rows } = await reader.query<{ id: number; message: string }>(
      'select id::int, message from chat_messages where message = any($1) order by created_at, id',
      [texts],
    );
    expect(rows.map((row) => row.message)).toEqual(texts);
    const history = await historyTexts(server.url, room);
    const replay = await replayTexts(server.url, room);
    for (const text of texts) {
      expect(count(history, text), text).toBe(1);
      expect(count(replay, text), text).toBe(1);
    }
  });

  it('deletes a message that is not saved yet: it is never saved', async () => {
    const host = await signUpAt(server.url);
    const fan = await signUpAt(server.url);
    const room = await createRoomAt(server.url, host.cookie);
    const owner = await join(server.url, room, host.cookie);
    const sender = await join(server.url, room, fan.cookie);
    const watcher = await join(server.url, room);
    for (const client of [owner, sender, watcher]) await client.next('chat_history');
    const texts = ['being written', 'kept', 'spam to delete'];

    const lock = await holdMessagesTable(database.url);
    let beingWritten: ChatMessage | undefined;
    try {
      const [first, , spam] = await sendAll(sender, watcher, texts);
      beingWritten = first;
      // The first is in the statement waiting for the table; the others wait behind it.
      owner.send({ type: 'delete_message', id: spam?.id });
      expect((await watcher.next('message_deleted')).id).toBe(spam?.id);
      expect(await historyTexts(server.url, room)).toEqual(['being written', 'kept']);
      // The one being written is deleted once its row is there.
      owner.send({ type: 'delete_message', id: first?.id });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(watcher.received.filter((m) => m.type === 'message_deleted')).toEqual([]);
    } finally {
      await lock.release();
    }
    expect((await watcher.next('message_deleted')).id).toBe(beingWritten?.id);

    await eventually(
      '"kept" saved',
      () => storedRows(reader, ['kept']),
      (n) => n === 1,
    );
    // Give a late write of a deleted one the time it would need to show.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await storedRows(reader, ['being written', 'spam to delete'])).toBe(0);
    expect(await historyTexts(server.url, room)).toEqual(['kept']);
    expect(await replayTexts(server.url, room)).toEqual(['kept']);
  });

  it('keeps slow mode with a message that is not saved yet', async () => {
    const host = await signUpAt(server.url);
    const fan = await signUpAt(server.url);
    const room = await createRoomAt(server.url, host.cookie);
    const settings = await fetch(`${server.url}/api/chat-settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: host.cookie },
      body: JSON.stringify({ slowModeSec: 30, blockedWords: [] }),
    });
    expect(settings.status).toBe(200);
    const sender = await join(server.url, room, fan.cookie);
    await sender.next('chat_history');

    const lock = await holdMessagesTable(database.url);
    try {
      sender.send({ type: 'chat_message', message: 'slow one' });
      await sender.next('chat_message', (m) => m.message === 'slow one');
      sender.send({ type: 'chat_message', message: 'slow two' });
      const refused = await sender.next('error');
      expect(refused.code).toBe('SLOW_MODE');
      expect(refused.message).toMatch(/wait (29|30) seconds/);
    } finally {
      await lock.release();
    }
    await eventually(
      '"slow one" saved',
      () => storedRows(reader, ['slow one']),
      (n) => n === 1,
    );
    // Saved, it still counts (from the database now).
    sender.send({ type: 'chat_message', message: 'slow three' });
    expect((await sender.next('error')).code).toBe('SLOW_MODE');
    expect(await storedRows(reader, ['slow two', 'slow three'])).toBe(0);
  });
});

describe('a server killed right after it delivered', () => {
  it('saves every delivered message exactly once after a restart on the same DATA_DIR', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ss-chat-kill-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = {};
    let database: ThrowawayDatabase | undefined;
    let reader: pg.Client | undefined;
    if (onPostgres) {
      database = await createThrowawayDatabase(databaseServerUrl, 'chatkill');
      const db = database;
      cleanups.push(() => db.drop());
      env.DATABASE_URL = database.url;
      reader = new pg.Client({ connectionString: database.url });
      await reader.connect();
      const r = reader;
      cleanups.push(() => r.end());
    }
    // Its embedded database starts migrated (the subject is the restart, not the first start).
    if (!onPostgres) await seedDataDirFromTemplate(dataDir);
    const first = await start(env, dataDir);
    const host = await signUpAt(first.url);
    const fans = [await signUpAt(first.url), await signUpAt(first.url)];
    const room = await createRoomAt(first.url, host.cookie);
    const watcher = await join(first.url, room);
    await watcher.next('chat_history');
    const senders = await Promise.all(fans.map((fan) => join(first.url, room, fan.cookie)));
    for (const sender of senders) await sender.next('chat_history');
    // Three each: the per-user burst.
    const texts = fans.flatMap((_, i) => [1, 2, 3].map((n) => `fan ${i} says ${n}`));

    // On PostgreSQL the table is held, so none of them can have been written before the kill.
    const lock = database ? await holdMessagesTable(database.url) : undefined;
    try {
      for (const [i, sender] of senders.entries()) {
        for (const text of texts.filter((t) => t.startsWith(`fan ${i} `))) {
          sender.send({ type: 'chat_message', message: text });
        }
      }
      for (const text of texts) await watcher.next('chat_message', (m) => m.message === text);
      await killMidWrite(first, lock);
    } finally {
      await lock?.release();
    }
    if (reader) expect(await storedRows(reader, texts)).toBe(0);

    const second = await start(env, dataDir);
    // The restarted server has them in the room's history at once, and saves them.
    const history = await historyTexts(second.url, room);
    for (const text of texts) expect(count(history, text), text).toBe(1);
    const replay = await eventually(
      'every delivered message in the replay',
      () => replayTexts(second.url, room),
      (got) => texts.every((text) => got.includes(text)),
    );
    for (const text of texts) expect(count(replay, text), text).toBe(1);
    // Stopped (it saves what it holds first), the database itself has each once.
    await second.stop();
    const check = reader ?? (await openPglite(dataDir));
    const { rows } = await check.query<{ message: string; n: number }>(
      'select message, count(*)::int as n from chat_messages where message = any($1) group by message',
      [texts],
    );
    if (!reader) await check.end();
    expect(Object.fromEntries(rows.map((row) => [row.message, row.n]))).toEqual(
      Object.fromEntries(texts.map((text) => [text, 1])),
    );
  }, 120_000);
});

describe.skipIf(!onPostgres)('an instance killed beside another on the same DATA_DIR', () => {
  it('is taken over: the other saves what it delivered', async () => {
    const database = await createThrowawayDatabase(databaseServerUrl, 'chatadopt');
    cleanups.push(() => database.drop());
    const reader = new pg.Client({ connectionString: database.url });
    await reader.connect();
    cleanups.push(() => reader.end());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ss-chat-shared-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATABASE_URL: database.url };
    const a = await start(env, dataDir);
    const b = await start(env, dataDir);
    const host = await signUpAt(a.url);
    const fan = await signUpAt(a.url);
    const room = await createRoomAt(a.url, host.cookie);
    const sender = await join(a.url, room, fan.cookie);
    const watcher = await join(a.url, room);
    await sender.next('chat_history');
    await watcher.next('chat_history');
    const texts = ['from a one', 'from a two', 'from a three'];

    const lock = await holdMessagesTable(database.url);
    try {
      await sendAll(sender, watcher, texts);
      await killMidWrite(a, lock);
    } finally {
      await lock.release();
    }
    expect(await storedRows(reader, texts)).toBe(0);
    // B looks for the journals of servers that are gone every 15 s.
    await eventually(
      'B saved what A delivered',
      () => storedRows(reader, texts),
      (n) => n >= 3,
      30_000,
    );
    expect(await storedRows(reader, texts)).toBe(3);
    expect(await historyTexts(b.url, room)).toEqual(texts);
  }, 120_000);
});
