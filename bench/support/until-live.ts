import type { ChildProcess } from 'node:child_process';
import type { Client } from './http-client.ts';

/** An encoder publishing to the server (ffmpeg over RTMP), with what it printed so far. */
export interface PublishingEncoder {
  child: ChildProcess;
  stderr: () => string;
}

/**
 * Waits until the room's stream is live (GET /api/streams/:room answers isActive), polling every
 * 100 ms with `pause` (a run's own stoppable wait, or a plain sleep). Throws, killing the encoder,
 * when it exits first or `timeoutMs` passes, with ffmpeg's last words.
 */
export async function untilLiveFromEncoder(
  api: Client,
  roomName: string,
  encoder: PublishingEncoder,
  timeoutMs: number,
  pause: (ms: number) => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stream = await api.request('GET', `/api/streams/${roomName}`);
    if (stream.body?.isActive === true) return;
    if (encoder.child.exitCode !== null || Date.now() > deadline) {
      encoder.child.kill('SIGKILL');
      const ffmpeg = encoder.child.exitCode === null ? 'still running' : `exited ${encoder.child.exitCode}`;
      throw new Error(
        `the stream did not go live from the encoder in ${timeoutMs / 1000} s ` +
          `(ffmpeg ${ffmpeg}: ${encoder.stderr().trim().slice(-300)})`,
      );
    }
    await pause(100);
  }
}
