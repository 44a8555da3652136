import { type ChildProcess, spawn, spawnSync } from 'node:child_process';

/** Whether Debian's ffmpeg and ffprobe are on the PATH (the media tests need both). */
export const ffmpegInstalled =
  spawnSync('ffmpeg', ['-version']).status === 0 && spawnSync('ffprobe', ['-version']).status === 0;

export interface EncoderProcess {
  child: ChildProcess;
  /** ffmpeg's exit code and its last error lines. */
  exited: Promise<{ code: number | null; stderr: string }>;
  /** SIGKILL, and its exit. */
  kill(): Promise<void>;
}

/**
 * ffmpeg playing OBS: a test picture (640×360, 30 fps, a keyframe every second, H.264) and a tone
 * (AAC), encoded in real time and published over RTMP to `url` for `seconds`. It exits when the
 * server drops the connection (an encoder's reconnect is a new one of these).
 */
export function startEncoder(url: string, seconds: number): EncoderProcess {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency'],
      ...['-g', '30', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'flv', url],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (text) => {
    stderr = (stderr + text).slice(-2000);
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  );
  return {
    child,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
