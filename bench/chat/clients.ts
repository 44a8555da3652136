/** The chat bench's clients (this process): viewer and sender sockets, and what each viewer received. */
import type WebSocket from 'ws';
import { closeSockets, joinRoom, runPool, sleep, wallMs } from '../support.ts';

export interface Measure {
  tag: string;
  total: number;
  /** seen[viewer * total + seq] */
  seen: Uint8Array;
  samples: number[][];
  /** Per message: the server's timestamp (ms resolution) − send time, from its first delivery. */
  acceptLag: Float64Array;
  delivered: number;
  duplicates: number;
  lastReceiveAt: number;
}

export interface Clients {
  viewers: WebSocket[];
  senders: WebSocket[];
  viewerInstance: number[];
  measure: Measure | undefined;
  viewerCountFrames: number;
  lastViewerCountAt: number;
  errors: Record<string, number>;
  unexpectedCloses: number;
  closing: boolean;
}

export function newClients(): Clients {
  return {
    viewers: [],
    senders: [],
    viewerInstance: [],
    measure: undefined,
    viewerCountFrames: 0,
    lastViewerCountAt: 0,
    errors: {},
    unexpectedCloses: 0,
    closing: false,
  };
}

/** Opens one socket and resolves once its chat_history arrived (30 s bound). */
export function connect(clients: Clients, url: string, viewer: number, cookie?: string): Promise<WebSocket> {
  return joinRoom(url, {
    cookie,
    onClose: () => {
      if (!clients.closing) clients.unexpectedCloses += 1;
    },
    onFrame: (frame, receivedAt) => {
      if (!frame) {
        clients.errors.BAD_FRAME = (clients.errors.BAD_FRAME ?? 0) + 1;
        return;
      }
      const message = frame as { type?: string; message?: string; timestamp?: string; code?: string };
      switch (message.type) {
        case 'chat_message': {
          const measure = clients.measure;
          if (viewer < 0 || !measure || typeof message.message !== 'string') return;
          const [tag, seqText, sentText] = message.message.split(':');
          if (tag !== measure.tag) return;
          const seq = Number(seqText);
          if (!(seq >= 0 && seq < measure.total)) return;
          const at = viewer * measure.total + seq;
          if (measure.seen[at]) {
            measure.duplicates += 1;
            return;
          }
          measure.seen[at] = 1;
          measure.delivered += 1;
          measure.lastReceiveAt = receivedAt;
          measure.samples[clients.viewerInstance[viewer] ?? 0]?.push(receivedAt - Number(sentText));
          if (Number.isNaN(measure.acceptLag[seq] ?? 0) && message.timestamp)
            measure.acceptLag[seq] = Date.parse(message.timestamp) - Number(sentText);
          return;
        }
        case 'viewer_count':
          clients.viewerCountFrames += 1;
          clients.lastViewerCountAt = performance.now();
          return;
        case 'error': {
          const code = message.code ?? 'UNKNOWN';
          clients.errors[code] = (clients.errors[code] ?? 0) + 1;
          return;
        }
      }
    },
  });
}

/** Connects `count` sockets, `concurrency` at a time; open(i) opens socket i. */
export const connectAll = runPool<WebSocket>;

export async function closeAll(clients: Clients): Promise<void> {
  clients.closing = true;
  await closeSockets([...clients.viewers, ...clients.senders]);
}

/**
 * Sends `total` messages at `rate` per second, round-robin over the senders (so each sender sends
 * at rate / senders per second), each carrying its tag, sequence number and send time.
 */
export async function sendMessages(
  senders: WebSocket[],
  tag: string,
  total: number,
  rate: number,
): Promise<void> {
  const interval = 1000 / rate;
  const start = performance.now() + 10;
  let k = 0;
  while (k < total) {
    const now = performance.now();
    while (k < total && start + k * interval <= now) {
      const sender = senders[k % senders.length];
      const message = `${tag}:${k}:${wallMs().toFixed(3)}`;
      sender?.send(JSON.stringify({ type: 'chat_message', message }));
      k += 1;
    }
    if (k < total) await sleep(Math.max(0, start + k * interval - performance.now()));
  }
}
