import { execFile, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegInstalled } from '../../../test/encoder-process.ts';
import { probeMedia } from '../../../test/media-probe.ts';
import { type Fmp4Event, Fmp4Reader } from '../containers/fmp4.ts';
import { pipelineArgs } from './pipeline.ts';
import { parsePlaylist } from './playlist.ts';
import { type CutPart, type CutSegment, PART_TARGET_SEC, SEGMENT_MIN_SEC, Segmenter } from './segmenter.ts';

/**
 * ADR 0024: the server cuts the pipeline's fragmented MP4 (a fragment per packet) into
 * low-latency HLS parts and ~1 s segments. Fed here with real ffmpeg output made by the
 * pipeline's own arguments (video encoded with a keyframe every second), the Segmenter's parts
 * and segments are checked against each other, against the files it writes, and by ffprobe.
 */

if (!ffmpegInstalled) console.warn('ffmpeg/ffprobe are not installed: the segmenter tests are skipped');

const run = promisify(execFile);
const SECONDS = 4;

/** What the pipeline's ffmpeg writes to stdout for a 4 s test picture and tone published to it. */
async function pipelineOutput(dir: string): Promise<Buffer> {
  const source = path.join(dir, 'published.mkv');
  await run('ffmpeg', [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
    ...['-f', 'lavfi', '-i', `testsrc2=s=320x240:r=30:d=${SECONDS}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:d=${SECONDS}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '300', '-c:a', 'pcm_s16le', source],
  ]);
  const input = openSync(source, 'r');
  try {
    const child = spawn('ffmpeg', pipelineArgs(false), { cwd: dir, stdio: [input, 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (text: Buffer) => {
      stderr += text.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    if (code !== 0) throw new Error(`the pipeline's ffmpeg exited ${code}: ${stderr}`);
    return Buffer.concat(chunks);
  } finally {
    closeSync(input);
  }
}

describe.skipIf(!ffmpegInstalled)('Segmenter on the pipeline’s fMP4', () => {
  let dir: string;
  let out: string;
  const cuts: (CutPart | CutSegment | { kind: 'init'; bytes: Buffer })[] = [];
  let fragments: Extract<Fmp4Event, { kind: 'fragment' }>[] = [];
  /** index.m3u8 as it was just before end(). */
  let openPlaylist = '';
  /** The segments cut before end(). */
  let segmentsBeforeEnd = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ss-segmenter-'));
    out = path.join(dir, 'run');
    mkdirSync(out);
    const stream = await pipelineOutput(dir);
    const reader = new Fmp4Reader();
    const segmenter = new Segmenter(out, (cut) => cuts.push(cut));
    // In chunks, as the pipe hands them over.
    for (let offset = 0; offset < stream.length; offset += 16 * 1024) {
      for (const event of reader.push(stream.subarray(offset, offset + 16 * 1024))) {
        if (event.kind === 'fragment') fragments.push(event);
        segmenter.push(event);
      }
    }
    segmentsBeforeEnd = cuts.filter((cut) => cut.kind === 'segment').length;
    openPlaylist = readFileSync(path.join(out, 'index.m3u8'), 'utf8');
    segmenter.end();
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    fragments = [];
  });

  const parts = () => cuts.filter((cut): cut is CutPart => cut.kind === 'part');
  const segments = () => cuts.filter((cut): cut is CutSegment => cut.kind === 'segment');
  const partsOf = (segment: number) => parts().filter((part) => part.segment === segment);

  it('hands over the init segment first, then each segment after its own parts, in order', () => {
    expect(cuts[0]?.kind).toBe('init');
    expect(cuts.filter((cut) => cut.kind === 'init')).toHaveLength(1);
    let segment = 0;
    let index = 0;
    for (const cut of cuts.slice(1)) {
      expect(cut.kind).not.toBe('init');
      if (cut.kind === 'part') {
        expect([cut.segment, cut.index]).toEqual([segment, index]);
        expect(cut.name).toBe(`seg-${String(segment).padStart(5, '0')}-p${index}.m4s`);
        index += 1;
      } else if (cut.kind === 'segment') {
        expect(cut.segment).toBe(segment);
        expect(index).toBeGreaterThan(0);
        segment += 1;
        index = 0;
      }
    }
    expect(index).toBe(0); // end() closed the last segment
    expect(segment).toBe(segments().length);
    // Every fragment's bytes are in exactly one part, in order.
    const joined = Buffer.concat(parts().map((part) => part.bytes));
    expect(joined.equals(Buffer.concat(fragments.map((fragment) => fragment.bytes)))).toBe(true);
  });

  it('cuts parts of at most the part target, none but a segment’s last under two thirds of it', () => {
    expect(parts().length).toBeGreaterThan(3 * SECONDS);
    for (const part of parts()) {
      expect(part.seconds).toBeGreaterThan(0);
      // The playlist's PART-TARGET (0.3 s): no part may play longer.
      expect(part.seconds).toBeLessThanOrEqual(0.3 + 1e-6);
      expect(part.seconds).toBeLessThanOrEqual(PART_TARGET_SEC + 1e-6);
    }
    for (const segment of segments()) {
      const own = partsOf(segment.segment);
      for (const part of own.slice(0, -1)) expect(part.seconds).toBeGreaterThanOrEqual(0.2);
      expect(segment.seconds).toBeCloseTo(
        own.reduce((sum, part) => sum + part.seconds, 0),
        6,
      );
    }
  });

  it('starts each segment with an independent part (a keyframe), and only there', () => {
    for (const segment of segments()) {
      const [first, ...rest] = partsOf(segment.segment);
      expect(first?.independent).toBe(true);
      expect(rest.map((part) => part.independent)).toEqual(rest.map(() => false));
    }
    // Independent means it starts with the keyframe fragment the reader saw.
    const keyframes = fragments.filter((fragment) => fragment.keyframe);
    expect(keyframes.length).toBe(segments().length);
    for (const [index, segment] of segments().entries()) {
      const first = partsOf(segment.segment)[0] as CutPart;
      const keyframe = keyframes[index]?.bytes ?? Buffer.alloc(1);
      expect(first.bytes.subarray(0, keyframe.length).equals(keyframe)).toBe(true);
    }
  });

  it('cuts segments of about a second, each file byte for byte its parts joined', () => {
    const all = segments();
    expect(all.length).toBeGreaterThanOrEqual(SECONDS - 1);
    expect(all.length).toBeLessThanOrEqual(SECONDS + 1);
    for (const segment of all.slice(0, -1)) {
      expect(segment.seconds).toBeGreaterThanOrEqual(SEGMENT_MIN_SEC);
      expect(segment.seconds).toBeLessThan(1.1);
    }
    expect(all.at(-1)?.seconds).toBeLessThan(1.1);
    expect(all.reduce((sum, segment) => sum + segment.seconds, 0)).toBeCloseTo(SECONDS, 1);
    for (const segment of all) {
      expect(segment.name).toBe(`seg-${String(segment.segment).padStart(5, '0')}.m4s`);
      const bytes = readFileSync(path.join(out, segment.name));
      expect(bytes.equals(Buffer.concat(partsOf(segment.segment).map((part) => part.bytes)))).toBe(true);
    }
    // The init segment as handed over is the file; nothing half written is left behind.
    const init = cuts[0] as { kind: 'init'; bytes: Buffer };
    expect(readFileSync(path.join(out, 'init.mp4')).equals(init.bytes)).toBe(true);
    expect(existsSync(path.join(out, 'index.m3u8.tmp'))).toBe(false);
  });

  it('lists the segments written so far in index.m3u8, closed with ENDLIST at the end', () => {
    const before = parsePlaylist(openPlaylist);
    expect(before.ended).toBe(false);
    expect(before.segments.map((segment) => segment.uri)).toEqual(
      segments()
        .slice(0, segmentsBeforeEnd)
        .map((segment) => segment.name),
    );
    expect(segmentsBeforeEnd).toBe(segments().length - 1); // the last one waits for the end

    const after = parsePlaylist(readFileSync(path.join(out, 'index.m3u8'), 'utf8'));
    expect(after.ended).toBe(true);
    expect(after.segments.map((segment) => [segment.uri, segment.map])).toEqual(
      segments().map((segment) => [segment.name, 'init.mp4']),
    );
    for (const [index, segment] of after.segments.entries()) {
      expect(segment.duration).toBeCloseTo(segments()[index]?.seconds ?? -1, 5);
    }
  });

  it('writes what ffprobe reads as H.264 and AAC: init.mp4 and a segment, and the whole playlist', async () => {
    const second = segments()[1] as CutSegment;
    const joined = path.join(dir, 'init-and-segment.mp4');
    writeFileSync(
      joined,
      Buffer.concat([readFileSync(path.join(out, 'init.mp4')), readFileSync(path.join(out, second.name))]),
    );
    const one = await probeMedia(joined);
    expect(one.codecs).toEqual(['aac', 'h264']);
    expect(one.videoPackets).toBe(30);

    const whole = await probeMedia(path.join(out, 'index.m3u8'));
    expect(whole.codecs).toEqual(['aac', 'h264']);
    expect(whole.videoPackets).toBe(30 * SECONDS);
    expect(whole.duration).toBeGreaterThan(SECONDS - 0.2);
  });
});
