/** The notify bench's chatters: signed-in room sockets that each send a message now and then and time its echo. */
import type WebSocket from 'ws';
import { type Account, closeSockets, joinRoom, wallMs } from '../support.ts';

export interface EchoSample {
  /** The phase the message was sent in. */
  phase: string;
  sentAt: number;
  ms: number;
}

export interface Chatters {
  samples: EchoSample[];
  /** Sent and not echoed yet (by text). */
  pending: Map<string, { phase: string; sentAt: number }>;
  /** Error frames (RATE_LIMITED, UNAVAILABLE, …) by code. */
  errors: Record<string, number>;
  /** Sends from now on, each chatter every `everyMs` (staggered), tagged with `phase`. */
  run(phase: string): void;
  /** Stops sending; waits up to `ms` for the echoes still on their way. */
  pause(ms?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * One socket per account in the room (/ws?room=…). Each chatter sends one message every `everyMs`
 * (under chat's limit of one a second after a burst of three), the chatters evenly staggered, and
 * times send → its own message coming back from the room: the whole chat path (rate limit, the
 * sender's standing read from the database, the journal, the room's fan-out) as a viewer feels it.
 */
export async function joinChatters(url: string, accounts: Account[], everyMs: number): Promise<Chatters> {
  const samples: EchoSample[] = [];
  const pending = new Map<string, { phase: string; sentAt: number }>();
  const errors: Record<string, number> = {};
  const sockets: WebSocket[] = [];
  for (const account of accounts) {
    sockets.push(
      await joinRoom(url, {
        cookie: account.cookie,
        onFrame(frame, receivedAt) {
          if (frame?.type === 'error') {
            const code = String(frame.code ?? 'UNKNOWN');
            errors[code] = (errors[code] ?? 0) + 1;
            return;
          }
          if (frame?.type !== 'chat_message' || typeof frame.message !== 'string') return;
          const sent = pending.get(frame.message);
          // Every chatter hears every message; only the sender's own copy counts.
          if (!sent || frame.username !== account.handle) return;
          pending.delete(frame.message);
          samples.push({ phase: sent.phase, sentAt: sent.sentAt, ms: receivedAt - sent.sentAt });
        },
      }),
    );
  }
  let timers: NodeJS.Timeout[] = [];
  let seq = 0;
  const stopTimers = () => {
    for (const timer of timers) clearTimeout(timer);
    timers = [];
  };
  return {
    samples,
    pending,
    errors,
    run(phase) {
      stopTimers();
      sockets.forEach((socket, i) => {
        const send = () => {
          seq += 1;
          const text = `echo ${i} ${seq} ${phase}`;
          const sentAt = wallMs();
          pending.set(text, { phase, sentAt });
          socket.send(JSON.stringify({ type: 'chat_message', message: text }));
        };
        const first = setTimeout(
          () => {
            send();
            timers.push(setInterval(send, everyMs));
          },
          (everyMs * i) / sockets.length,
        );
        timers.push(first);
      });
    },
    async pause(ms = 5000) {
      stopTimers();
      const deadline = performance.now() + ms;
      while (pending.size > 0 && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
    },
    async close() {
      stopTimers();
      await closeSockets(sockets);
    },
  };
}
