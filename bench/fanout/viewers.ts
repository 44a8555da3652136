/**
 * The fan-out bench's viewers, in child processes of their own (this file again, with ROLE_ENV
 * set), so that their CPU is neither the server's nor the bench's. Each child holds some of the
 * viewers (wire.ts clients, payloads not kept) and counts, per viewer over a window, the bytes and
 * binary messages it received and its largest gap between two binary messages, and over all its
 * viewers a histogram of those gaps (1 ms buckets).
 */

import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { connectWire, fragmentSequence, OPCODE, type WireClient } from './wire.ts';

const self = fileURLToPath(import.meta.url);
const root = fileURLToPath(new URL('../..', import.meta.url));
const ROLE_ENV = 'STREAMSHOP_FANOUT_BENCH_VIEWERS';
/** A child ends itself after this long whatever happens to its parent. */
const CHILD_MAX_LIFETIME_MS = 15 * 60_000;
/** Gaps are counted in 1 ms buckets up to this; longer ones in the last. */
export const GAP_BUCKETS = 10_001;
const OPEN_CONCURRENCY = 50;

export interface ViewerWindow {
  bytes: number;
  messages: number;
  /** Jumps forward in the fragments' numbers: the server skipped this viewer ahead. */
  skips: number;
  maxGapMs: number;
  closed: boolean;
  /** Which viewer child it is in (set by the bench). */
  group?: number;
}

export interface WindowFigures {
  seconds: number;
  viewers: ViewerWindow[];
  gapHistogram: number[];
}

type Command =
  | { cmd: 'open'; url: string; count: number }
  | { cmd: 'mark' }
  | { cmd: 'collect' }
  | { cmd: 'close' };

type Answer =
  | { ok: true; opened?: number; failed?: string[]; window?: WindowFigures }
  | { ok: false; error: string };

interface Viewer {
  client?: WireClient;
  bytes: number;
  messages: number;
  skips: number;
  lastSeq: number;
  lastAt: number;
  maxGapMs: number;
  closed: boolean;
}

function child(): void {
  setTimeout(() => process.exit(3), CHILD_MAX_LIFETIME_MS).unref();
  let viewers: Viewer[] = [];
  let gaps = new Uint32Array(GAP_BUCKETS);
  let markedAt = performance.now();

  const open = async (url: string, count: number) => {
    const failed: string[] = [];
    let next = 0;
    const started = viewers.length;
    await Promise.all(
      Array.from({ length: Math.min(OPEN_CONCURRENCY, count) }, async () => {
        while (next < count) {
          next += 1;
          const viewer: Viewer = {
            bytes: 0,
            messages: 0,
            skips: 0,
            lastSeq: -1,
            lastAt: 0,
            maxGapMs: 0,
            closed: false,
          };
          try {
            viewer.client = await connectWire({
              url,
              headBytes: 64,
              onMessage(opcode, length, head, at) {
                viewer.bytes += length;
                if (opcode !== OPCODE.binary) return;
                viewer.messages += 1;
                const seq = head && fragmentSequence(head);
                if (seq !== undefined) {
                  // Forward only: the floor's loop starts its numbers over.
                  if (viewer.lastSeq >= 0 && seq > viewer.lastSeq + 1) viewer.skips += 1;
                  viewer.lastSeq = seq;
                }
                if (viewer.lastAt) {
                  const gap = at - viewer.lastAt;
                  if (gap > viewer.maxGapMs) viewer.maxGapMs = gap;
                  const bucket = Math.min(GAP_BUCKETS - 1, Math.round(gap));
                  gaps[bucket] = (gaps[bucket] ?? 0) + 1;
                }
                viewer.lastAt = at;
              },
              onClose() {
                viewer.closed = true;
              },
            });
            viewers.push(viewer);
          } catch (error) {
            failed.push(error instanceof Error ? error.message : String(error));
          }
        }
      }),
    );
    return { opened: viewers.length - started, failed: failed.slice(0, 5) };
  };

  const handle = async (command: Command): Promise<Answer> => {
    switch (command.cmd) {
      case 'open':
        return { ok: true, ...(await open(command.url, command.count)) };
      case 'mark':
        markedAt = performance.now();
        gaps = new Uint32Array(GAP_BUCKETS);
        for (const v of viewers) {
          v.bytes = 0;
          v.messages = 0;
          v.skips = 0;
          v.maxGapMs = 0;
          // The first gap of the window counts from the mark, not from before it.
          v.lastAt = markedAt;
        }
        return { ok: true };
      case 'collect': {
        const seconds = (performance.now() - markedAt) / 1000;
        const figures = viewers.map(({ bytes, messages, skips, maxGapMs, closed }) => ({
          bytes,
          messages,
          skips,
          maxGapMs,
          closed,
        }));
        return { ok: true, window: { seconds, viewers: figures, gapHistogram: [...gaps] } };
      }
      case 'close':
        for (const v of viewers) v.client?.close();
        viewers = [];
        return { ok: true };
    }
  };

  process.on('message', (command: Command) => {
    handle(command).then(
      (answer) => process.send?.(answer),
      (error: unknown) => process.send?.({ ok: false, error: String(error) } satisfies Answer),
    );
  });
  process.once('disconnect', () => process.exit(0));
}

/** One child holding viewers; its commands answer in order. */
export class ViewerGroup {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(readonly proc: ChildProcess) {}

  static start(): ViewerGroup {
    const proc = fork(self, [], {
      cwd: root,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, [ROLE_ENV]: 'viewers' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new ViewerGroup(proc);
  }

  get pid(): number {
    return this.proc.pid ?? 0;
  }

  private ask(command: Command): Promise<Extract<Answer, { ok: true }>> {
    const answer = this.queue.then(
      () =>
        new Promise<Extract<Answer, { ok: true }>>((resolve, reject) => {
          const onExit = () => reject(new Error('a viewers child exited'));
          this.proc.once('exit', onExit);
          this.proc.once('message', (message: Answer) => {
            this.proc.off('exit', onExit);
            if (message.ok) resolve(message);
            else reject(new Error(message.error));
          });
          this.proc.send(command);
        }),
    );
    this.queue = answer.catch(() => {});
    return answer;
  }

  async open(url: string, count: number): Promise<{ opened: number; failed: string[] }> {
    const answer = await this.ask({ cmd: 'open', url, count });
    return { opened: answer.opened ?? 0, failed: answer.failed ?? [] };
  }

  async mark(): Promise<void> {
    await this.ask({ cmd: 'mark' });
  }

  async collect(): Promise<WindowFigures> {
    const answer = await this.ask({ cmd: 'collect' });
    if (!answer.window) throw new Error('no window figures');
    return answer.window;
  }

  async closeAll(): Promise<void> {
    await this.ask({ cmd: 'close' });
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = once(this.proc, 'exit');
    this.proc.disconnect();
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

if (process.env[ROLE_ENV] === 'viewers') child();
