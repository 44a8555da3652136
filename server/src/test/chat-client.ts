import type { ServerMessage } from '@streamshop/contract/live.ts';
import WebSocket from 'ws';
import { eventually } from './eventually.ts';
import type { TestApp } from './test-app.ts';

/** A chat client that records what it receives and can wait for a message of a kind. */
export async function connectChat(base: string, roomName: string, cookie?: string, origin?: string) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (origin) headers.origin = origin;
  const socket = new WebSocket(`${base}/ws?room=${encodeURIComponent(roomName)}`, { headers });
  const received: ServerMessage[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    received.push(JSON.parse(data.toString()));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  async function next<T extends ServerMessage['type']>(
    type: T,
    match: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true,
  ): Promise<Extract<ServerMessage, { type: T }>> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = received.find((m) => m.type === type && match(m as Extract<ServerMessage, { type: T }>));
      if (found) {
        received.splice(received.indexOf(found), 1);
        return found as Extract<ServerMessage, { type: T }>;
      }
      if (Date.now() > deadline) throw new Error(`no ${type} message; got ${JSON.stringify(received)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }
  const send = (message: unknown) =>
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  return { socket, received, next, send, closed };
}

export type ChatClient = Awaited<ReturnType<typeof connectChat>>;

/**
 * The texts a room's chat saved, once there is at least one: messages are saved just after they
 * are broadcast (ADR 0019), so a test that saw one delivered waits here for its row.
 */
export function savedChatMessages(t: TestApp, roomName: string): Promise<Array<{ message: string }>> {
  return eventually(
    'the message saved',
    async () =>
      (
        await t.database.pool.query<{ message: string }>(
          'select message from chat_messages m join streams s on s.id = m.stream_id where s.room_name = $1',
          [roomName],
        )
      ).rows,
    (found) => found.length > 0,
  );
}
