/**
 * Glass-to-glass latency of the live video, broadcaster (a browser, or an encoder over RTMP) to
 * viewer, in a real browser.
 *
 * The real server (server/src/main.ts, fresh PGlite DATA_DIR) runs in a child process; one
 * Debian Chromium (/usr/bin/chromium, the e2e launcher's flags) runs every page, so every page
 * reads the same system clock. The broadcaster's camera is Chromium's fake capture device fed
 * from a Y4M file made with ffmpeg at bench time: 640x360, 30 fps, a 20-second loop whose every
 * frame shows its number (0–599) as a barcode of 24 large black/white blocks (12 bits, each bit
 * once as itself and once inverted: a frame decodes only when all 12 pairs clearly differ, so a
 * smeared or half-decoded frame never gives a wrong number). The frame numbers repeat every 20 s;
 * a viewer frame is matched to the broadcaster's showing of the same number within the 19 s before
 * it, so latencies up to 19 s (HLS is several seconds behind) are measured and anything later
 * counts as unmatched; never as a wrong match, since the next older showing is 20 s back.
 *
 * A probe script in every page hooks requestVideoFrameCallback on its <video>, draws each frame
 * into a 96x54 canvas, decodes the blocks and logs (frame, time): the time is the frame's
 * expectedDisplayTime, turned into wall time with an offset taken in that page (Date.now() at a
 * millisecond tick − performance.now()), because performance.timeOrigin differs per page.
 *
 *   broadcaster  a signed-up seller goes live through /golive and Start Stream (the app's own
 *                MediaRecorder → /ws/publish); the probe reads the camera preview
 *                (data-testid="camera-preview"). One stream per ingest, one after another, each
 *                ended before the next: H.264 (Chromium records video/webm;codecs=h264, the
 *                server's ffmpeg copies it) and VP8 (an init script makes
 *                MediaRecorder.isTypeSupported say no to every h264/avc1 type, so the app records
 *                VP8 and ffmpeg encodes it to H.264); then RTMP, below
 *   RTMP         ffmpeg as OBS (encoder.ts): a seller signed up through the API creates the stream
 *                (POST /api/rooms), reads GET /api/streams/:name/ingest and ffmpeg publishes to
 *                rtmpUrl + '/' + streamKey (the bench's server listens for RTMP on a free port); the
 *                stream goes live when it connects and is ended by POST /api/streams/:name/end,
 *                then ffmpeg is stopped. ffmpeg encodes as OBS would (libx264 veryfast zerolatency,
 *                a keyframe every 1 s, yuv420p, 1.5 Mbit/s CBR, AAC, FLV) the clip's own frames
 *                (clip.ts's yuvFrame) and a 440 Hz tone, both written raw by the bench into its
 *                stdin and fd 3: frame n (number n mod 600) at its slot t0 + n/30 on the bench's
 *                wall clock (Date.now() paired with performance.now(), as in the pages), with 1/30 s
 *                of the tone. There is no preview to probe: frame n's broadcaster time is its slot.
 *                ffmpeg numbers the frames n/30 and the samples by count, so the stream's timeline is
 *                the slots', and a frame does not fit the 64 KB pipe, so ffmpeg has it as it is
 *                written. The error is one-sided: a frame written late still counts from its slot,
 *                overstating its latency by the lateness, which is reported (p50 / p99 / max over the
 *                window, a warning above 10 ms p99). The rest is the encoder's and counts: ffmpeg 5.1
 *                puts frame n out ~70 ms after its slot (checked twice with the FLV to a pipe: p50
 *                71–72, p99 78–88 ms; its FLV interleaver waits for the next AAC packet; 1–3 ms
 *                without audio),
 *                where the browser's reference, its preview, is shown ~10 ms after capture with
 *                MediaRecorder encoding beside it. Not `-re` on the Y4M: it paces from a start ffmpeg
 *                does not report (its first progress line comes up to 0.5 s later), and a `-re` lavfi
 *                tone starts at ffmpeg's own start, so frames written earlier waited that long in the
 *                interleaver
 *   viewers      three signed-out viewers, each in its own browser context, on the same stream:
 *                /room/:name?path=ws (fMP4 over the WebSocket into MSE), ?path=hls (the live
 *                playlist in Chromium's own HLS player) and ?path=hlsjs (hls.js); the probe reads
 *                data-testid="live-video", whose data-path / data-engine are checked against the
 *                forced path. Latency = viewer time − preview time (RTMP: slot) of the same frame,
 *                median / p95 / p99 per path over the measured window (60 s)
 *   late joins   on a last stream of their own (H.264, nobody else watching): 10 (--late-joins,
 *                up to 20) signed-out contexts open /room/:name (no ?path=: the automatic path) one
 *                after another from 8 s into the stream, each with a cold cache: navigation start →
 *                first frame presented, with the room API's answer and the media WebSocket's open
 *                and first bytes on the way; p50 / p95 over the joins and each join's timeline
 *   CPU          per stream, over its measured window: the server process's CPU seconds and its
 *                ffmpeg children's (/proc/<pid>/stat; children that ended in the window through the
 *                server's cutime + cstime) ÷ wall seconds, as % of one core, with the 3 viewers on;
 *                and the idle server's over --idle-seconds before any stream. The RTMP encoder is the
 *                bench's child, not the server's: its CPU is reported apart, the same way. Beside it the
 *                pipeline's output frame rate, counted in the live playlist's newest segments
 *                (segments.ts): ~30 for the 30 fps camera, more when ffmpeg duplicates frames
 *   baseline     before going live, in its own context: one page records the same fake camera with
 *                the app's MediaRecorder settings and appends the chunks straight into MSE in the
 *                same page, with the player's live-edge rule: the floor of record → MSE playback
 *                with no network and no server. The preview's own camera → preview delay
 *                (requestVideoFrameCallback's captureTime) is reported too. RTMP has no
 *                MediaRecorder: its rows' baseline is the browser's H.264 ingest on the same path in
 *                the same run.
 *
 *   npm run bench -- latency [--seconds=60] [--warmup=5] [--late-joins=10] [--baseline-seconds=12]
 *                            [--idle-seconds=10] [--ingest=all|both|h264|vp8|rtmp] [--max-seconds=600]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) --ingest=all (the default) is
 * H.264, VP8 and RTMP; both is the browser's two. Each stream runs on the free
 * plan (1:39) and is ended before the next starts: the viewers get 15 s to start, so warm-up +
 * seconds is at most 75 s, and the late joins are spread over at most 80 s. With the defaults the
 * run takes about 6–7 minutes. It stops by itself after --max-seconds: Chromium and the server
 * are stopped, the temp folder removed, and the exit code is 3. Needs ffmpeg and the built web
 * app (it runs `npm run build` first when web/dist is missing).
 *
 * The run is three phases, each in its own file under bench/latency/: setUp (setup.ts: the clip,
 * the server, Chromium) → measure (measure.ts: the loopback baseline; stream.ts, viewers.ts,
 * cpu.ts, segments.ts: a stream, its viewers per path, its CPU and output; broadcaster.ts and
 * encoder.ts: the browser's and the RTMP broadcaster; late-joins.ts) →
 * judgeAndReport (figures.ts, judge.ts: the figures, the verdicts, the table and
 * bench/results/latency*.json). options.ts has the flags and targets, teardown.ts the hard cap
 * and the clean-up.
 */

import { judgeAndReport } from './latency/judge.ts';
import { type Measured, measure } from './latency/measure.ts';
import { parseOptions } from './latency/options.ts';
import { announce, prepare, type Rig, setUp } from './latency/setup.ts';
import { fixed, stopAll } from './latency/stop.ts';

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const loadAverageBefore = announce(options);
  const started = performance.now();
  const teardown = prepare(options);
  try {
    const rig: Rig = await setUp(options, teardown, loadAverageBefore, started);
    const measured: Measured = await measure(rig);
    const cleanedAt = performance.now();
    if (!judgeAndReport(rig, measured, cleanedAt)) process.exitCode = 1;
  } finally {
    await teardown.disarm();
    console.log(`latency: done in ${fixed((performance.now() - started) / 1000)} s`);
  }
}

try {
  await main();
} catch (error) {
  console.error(stopAll.signal.aborted ? `latency: stopped: ${stopAll.signal.reason}` : error);
  process.exitCode = stopAll.signal.aborted ? 3 : 1;
}
