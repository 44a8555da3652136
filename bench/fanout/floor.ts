/**
 * The floor: a bare `ws` server in a child process of its own (this file again, with ROLE_ENV
 * set) that sends what the app's server sent one viewer (recording.ts) to every viewer, as the
 * app's relay does: each connection gets the media_reset text and the init segment, then every
 * live fragment goes to every open socket as the same Buffer (socket.send(bytes, { binary: true })),
 * at its recorded offset, the recording played in a loop. No checks of any kind: the cost of
 * WebSocket fan-out in Node itself, the floor under the app's.
 */

import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { readRecording } from './recording.ts';

const self = fileURLToPath(import.meta.url);
const root = fileURLToPath(new URL('../..', import.meta.url));
const ROLE_ENV = 'STREAMSHOP_FANOUT_BENCH_FLOOR';
const CHILD_MAX_LIFETIME_MS = 15 * 60_000;

async function child(file: string): Promise<void> {
  setTimeout(() => process.exit(3), CHILD_MAX_LIFETIME_MS).unref();
  const recording = readRecording(file);
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await once(wss, 'listening');
  wss.on('connection', (socket) => {
    socket.send(recording.reset);
    socket.send(recording.init, { binary: true });
  });
  let loopStart = performance.now();
  let next = 0;
  const tick = () => {
    const now = performance.now() - loopStart;
    for (;;) {
      const fragment = recording.fragments[next];
      if (!fragment) {
        loopStart += recording.loopMs;
        next = 0;
        break;
      }
      if (fragment.at > now) break;
      for (const socket of wss.clients)
        if (socket.readyState === WebSocket.OPEN) socket.send(fragment.bytes, { binary: true });
      next += 1;
    }
    const due = (recording.fragments[next]?.at ?? 0) + loopStart - performance.now();
    setTimeout(tick, Math.max(0, due));
  };
  tick();
  const address = wss.address();
  if (!address || typeof address === 'string') throw new Error('not a TCP address');
  process.send?.({ port: address.port });
  process.once('disconnect', () => process.exit(0));
}

export interface FloorServer {
  proc: ChildProcess;
  pid: number;
  /** ws://127.0.0.1:<port>/ws/media */
  url: string;
  stop(): Promise<void>;
}

/** Starts the floor on `recordingFile`; resolves once it listens. */
export async function startFloor(recordingFile: string): Promise<FloorServer> {
  const proc = fork(self, [recordingFile], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [ROLE_ENV]: 'floor' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, 'exit');
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const [message] = (await Promise.race([
      once(proc, 'message'),
      once(proc, 'exit').then(() => {
        throw new Error('the floor server exited at start');
      }),
    ])) as [{ port: number }];
    return { proc, pid: proc.pid ?? 0, url: `ws://127.0.0.1:${message.port}/ws/media`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

if (process.env[ROLE_ENV] === 'floor') await child(process.argv[2] ?? '');
