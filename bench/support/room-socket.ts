/** Room sockets: joining a room (/ws?room=…) until its chat history arrived, and closing them all. */
import WebSocket from 'ws';
import { wallMs } from './helpers.ts';

export interface RoomFrame {
  type?: string;
  [key: string]: unknown;
}

/**
 * Opens one room socket (/ws?room=…, no compression, 30 s bound) and resolves once its
 * chat_history arrived. Every frame goes to onFrame with its receive time (wallMs(), taken before
 * parsing), `undefined` for a frame that is not JSON; onClose hears a close after the join.
 */
export function joinRoom(
  url: string,
  options: {
    cookie?: string | undefined;
    onFrame(frame: RoomFrame | undefined, receivedAt: number): void;
    onClose?(code: number): void;
  },
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      perMessageDeflate: false,
      handshakeTimeout: 30_000,
      ...(options.cookie ? { headers: { cookie: options.cookie } } : {}),
    });
    let joined = false;
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`no chat_history within 30 s from ${url}`));
    }, 30_000);
    socket.on('message', (data) => {
      const receivedAt = wallMs();
      let frame: RoomFrame | undefined;
      try {
        frame = JSON.parse(String(data)) as RoomFrame;
      } catch {
        frame = undefined;
      }
      if (!joined && frame?.type === 'chat_history') {
        joined = true;
        clearTimeout(timer);
        resolve(socket);
      }
      options.onFrame(frame, receivedAt);
    });
    socket.once('error', (error) => {
      if (!joined) {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.once('close', (code) => {
      if (!joined) {
        clearTimeout(timer);
        reject(new Error(`closed with ${code} before chat_history`));
      } else options.onClose?.(code);
    });
  });
}

/** Closes every socket (1000), terminating any that has not closed within 3 s. */
export async function closeSockets(sockets: Array<WebSocket | undefined>): Promise<void> {
  await Promise.all(
    sockets.filter(Boolean).map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (!socket || socket.readyState === WebSocket.CLOSED) return resolve();
          const timer = setTimeout(() => {
            socket.terminate();
            resolve();
          }, 3000);
          socket.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          socket.close(1000);
        }),
    ),
  );
}
