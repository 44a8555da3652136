import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../../test/eventually.ts';
import { isAlive } from '../../../test/processes.ts';
import { DEMO_CLIP_SECONDS, ensureDemoClip, runFfmpeg } from './demo-clip.ts';

const run = promisify(execFile);

/** The record's label in the frame at `seconds` (its centre is at 650,220), as 60×60 grey bytes. */
async function frameAt(clip: string, seconds: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-v', 'error', '-ss', String(seconds), '-i', clip, '-frames:v', '1'],
      ...['-vf', 'crop=120:120:590:160,scale=60:60', '-pix_fmt', 'gray', '-f', 'rawvideo', 'pipe:1'],
    ],
    { encoding: 'buffer' },
  );
  return stdout;
}

/** Mean absolute difference of two grey frames, 0–255. */
function difference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

describe('the demo clip', { timeout: 90_000 }, () => {
  it('is H.264 and AAC, 854×480, 12 s with a keyframe every second, and made once per machine', async () => {
    const clip = await ensureDemoClip('ffmpeg');
    expect(await ensureDemoClip('ffmpeg')).toBe(clip);
    const { stdout } = await run('ffprobe', [
      ...[
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name,width,height:format=duration',
        '-of',
        'json',
        clip,
      ],
    ]);
    const probed = JSON.parse(stdout) as {
      streams: { codec_name: string; width?: number; height?: number }[];
      format: { duration: string };
    };
    expect(probed.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(probed.streams.find((s) => s.codec_name === 'h264')).toMatchObject({ width: 854, height: 480 });
    expect(Math.abs(Number(probed.format.duration) - DEMO_CLIP_SECONDS)).toBeLessThan(0.2);
    const keyframes = await run('ffprobe', [
      ...['-v', 'error', '-select_streams', 'v', '-skip_frame', 'nokey', '-show_entries', 'frame=pts_time'],
      ...['-of', 'csv=p=0', clip],
    ]);
    const times = keyframes.stdout.split('\n').map(Number.parseFloat).filter(Number.isFinite);
    expect(times.map((time) => Math.round(time))).toEqual([...Array(DEMO_CLIP_SECONDS).keys()]);
  });

  it('turns its record a whole number of times in the clip, so the loop does not jump', async () => {
    const clip = await ensureDemoClip('ffmpeg');
    const start = await frameAt(clip, 0);
    // 30 rpm: the picture two seconds on is the same; a quarter turn on it is not.
    expect(difference(start, await frameAt(clip, 2))).toBeLessThan(2);
    expect(difference(start, await frameAt(clip, 0.5))).toBeGreaterThan(2);
  });
});

describe('runFfmpeg', () => {
  it('when aborted, settles only once the process has exited (nothing left running after a server stops)', async () => {
    // An "ffmpeg" that takes a second to exit after SIGTERM, as a busy encoder finishing its output may.
    const dir = mkdtempSync(path.join(tmpdir(), 'ss-slow-ffmpeg-'));
    try {
      const pidFile = path.join(dir, 'pid');
      const slow = path.join(dir, 'slow-ffmpeg');
      writeFileSync(
        slow,
        `#!/bin/sh\necho $$ > ${pidFile}\ntrap 'sleep 1; exit 143' TERM\nwhile :; do sleep 0.1; done\n`,
      );
      chmodSync(slow, 0o755);
      const controller = new AbortController();
      const running = runFfmpeg(slow, [], { timeout: 60_000, signal: controller.signal });
      const pid = Number(await eventually('the process to start', () => readIfThere(pidFile).trim()));
      controller.abort();
      await expect(running).rejects.toMatchObject({ name: 'AbortError' });
      expect(isAlive(pid)).toBe(false);
      // Aborted before it starts: nothing is started.
      await expect(runFfmpeg(slow, [], { timeout: 60_000, signal: controller.signal })).rejects.toMatchObject(
        {
          name: 'AbortError',
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
