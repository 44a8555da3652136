/**
 * What a lower HLS rendition for Pro streams would cost (the issue "Pro viewers with slow
 * connections get a lower rendition on HLS if the CPU budget allows; measure it before deciding").
 *
 * Today the live pipeline (ADR 0011, server/src/modules/media/pipeline/pipeline.ts) copies a publisher's
 * H.264 into fMP4 for the WebSocket path and HLS: one ffmpeg per stream, no video encode. A lower
 * rendition means decoding the 1080p input, scaling it and encoding it again with libx264, in the
 * same ffmpeg (one process producing both, as the server would run it). No server, no browser:
 * only that ffmpeg, spawned with the server's arguments, its cwd a working folder, fed on stdin.
 *
 *   source     made at bench time with ffmpeg (clip.ts): 1080p30 H.264 High, 6 Mbit/s CBR, 2
 *              B-frames, a keyframe every second, AAC 128 kbit/s, as FLV (what OBS sends over
 *              RTMP); testsrc2 with temporal grain so it is not trivially compressible; 24 s, looped
 *   feeding    like the server: the FLV init, then each tag when it is due in real time (looped
 *              with its timestamps moved on), never waiting for ffmpeg: a pipeline that cannot keep
 *              up builds an input backlog (the server restarts it past 8 MB)
 *   rows       copy            today: `pipelineArgs(true)` (video copied, audio to AAC; tee: fMP4
 *                              on stdout + HLS fMP4 segments of ~1 s)
 *              decode-only     the same plus the input decoded and scaled to 854×480, but not
 *                              encoded (the null muxer): the floor that every preset pays
 *              480-ultrafast,  the same plus the input decoded, scaled to 854×480 and encoded by
 *              480-superfast,  libx264 (-tune zerolatency, a keyframe every second, 1.2 Mbit/s
 *              480-veryfast    CBR, the preset named), written with the same AAC as a second HLS
 *                              playlist in low/
 *              720-veryfast    the same at 1280×720, 2.5 Mbit/s
 *   measured   per row, after --warmup seconds, over --seconds of wall time:
 *              - CPU: ffmpeg's /proc/<pid>/stat utime + stime (all threads) ÷ wall time, % of one
 *                core; how many such streams fit in one core and in all (100 ÷ % per stream,
 *                ffmpeg only: the server's relay comes on top); its threads' run-queue wait
 *                (schedstat: runnable but waiting for a CPU); the whole machine's busy CPU
 *                (/proc/stat) split into the row's ffmpeg, this node process and other work;
 *                ffmpeg's resident memory
 *              - real-time factor: ffmpeg's progress out_time advance ÷ wall time (the input is
 *                real time, so < 1.0 means falling behind; ≥ 0.98 counts as keeping up)
 *              - delays: a keyframe written to stdin → its fragment on stdout (the WebSocket
 *                path); the keyframe that closes an HLS segment written → that segment's file
 *                (1080p and low; folders polled every 20 ms); time to the first segment
 *              - the low rendition's bit rate (segment bytes ÷ duration, video + audio)
 *              then, with --batch-seconds, the same ffmpeg fed as fast as it reads that much of
 *              the clip: its top speed (× real time) and CPU per real-time second
 *
 *   npm run bench -- rendition [--seconds=30] [--warmup=5] [--only=copy,480-veryfast,…]
 *                              [--parallel=N] [--batch-seconds=20] [--max-seconds=600]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) --parallel=N runs N copies of
 * each row at once (each fed its own input), to check the "fits N" figure: it loads the whole
 * machine. With the defaults the run takes about 4–5 minutes on 2 cores; the machine's load average
 * is printed and kept in the JSON, since other work skews the real-time factor and the delays. It
 * stops by itself after --max-seconds: every ffmpeg is killed, the temp folder removed, and the
 * exit code is 3. Prints the table and writes bench/results/rendition*.json. Needs Debian's ffmpeg
 * (libx264).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { armHardCap, track } from './rendition/children.ts';
import { makeClip } from './rendition/clip.ts';
import { parseOptions, type Row, SOURCE } from './rendition/options.ts';
import { type RowRuns, writeReport } from './rendition/report.ts';
import { runBatch, runLive } from './rendition/run.ts';
import { fixed } from './support.ts';

const loads = (values: number[]) => values.map((n) => n.toFixed(1)).join(' ');

async function measureRow(
  row: Row,
  clip: Awaited<ReturnType<typeof makeClip>>,
  temp: string,
  options: ReturnType<typeof parseOptions>,
): Promise<RowRuns> {
  const dirs = Array.from({ length: options.parallel }, (_, i) => path.join(temp, `${row.key}-live-${i}`));
  const live = await Promise.all(dirs.map((dir) => runLive(row, clip, dir, options.warmup, options.seconds)));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  let batch: RowRuns['batch'];
  if (options.batchSeconds > 0) {
    const dir = path.join(temp, `${row.key}-batch`);
    batch = await runBatch(row, clip, dir, options.batchSeconds);
    rmSync(dir, { recursive: true, force: true });
  }
  const cpu = live.map((r) => fixed((r.window.cpuSec / (r.window.to - r.window.from)) * 100000));
  console.log(
    `  ${row.label}: ffmpeg ${cpu.join(', ')} % of a core` +
      (batch ? `; batch ${fixed(batch.mediaSec / batch.wallSec, 1)}× real time` : '') +
      `; load ${loads(loadavg())}`,
  );
  return { row, live, batch };
}

async function main(): Promise<boolean> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const loadAverageBefore = loadavg();
  const cpus = availableParallelism();
  const perRow = options.warmup + options.seconds + 2 + options.batchSeconds / 3;
  console.log(
    `rendition: ${options.rows.map((r) => r.key).join(', ')}; ${options.parallel} stream(s) at once, ` +
      `${options.warmup} s warm-up + ${options.seconds} s measured each` +
      (options.batchSeconds ? `, then ${options.batchSeconds} s of media as fast as it goes` : '') +
      `; about ${fixed((options.rows.length * perRow + 20) / 60, 0)} min; load average ${loads(loadAverageBefore)} ` +
      `on ${cpus} CPUs`,
  );
  if ((loadAverageBefore[0] ?? 0) > cpus / 2)
    console.warn(
      '!! other work is running: the real-time factor and the delays will be worse than on a quiet machine',
    );

  const temp = mkdtempSync(path.join(tmpdir(), 'ss-rendition-bench-'));
  const disarm = armHardCap('rendition', options.maxSeconds, temp);
  try {
    const clip = await makeClip(path.join(temp, 'clip.flv'), track);
    console.log(
      `source: ${SOURCE.width}x${SOURCE.height} ${SOURCE.fps} fps, ${clip.videoFrames} frames, ${clip.keyframes} ` +
        `keyframes, ${fixed((clip.bytes * 8) / SOURCE.seconds / 1e6, 2)} Mbit/s with audio; made in ` +
        `${fixed(clip.generateMs / 1000)} s`,
    );
    const runs: RowRuns[] = [];
    for (const row of options.rows) runs.push(await measureRow(row, clip, temp, options));
    const figures = writeReport(runs, options, {
      clip,
      loadAverageBefore,
      loadAverageAfter: loadavg(),
      durationSec: (performance.now() - started) / 1000,
    });
    return figures.every((f) => f.problems.length === 0);
  } finally {
    disarm();
    console.log(`rendition: done in ${fixed((performance.now() - started) / 1000)} s`);
  }
}

try {
  if (!(await main())) process.exitCode = 1;
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
