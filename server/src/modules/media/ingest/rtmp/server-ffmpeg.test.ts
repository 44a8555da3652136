import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FlvSplitter } from '../../containers/flv-splitter.ts';
import type { RelayEvent } from '../../relay-events.ts';
import type { RtmpIngestServerOptions } from './server.ts';
import { type HarnessPublish, type IngestHarness, startIngestHarness } from './test-harness.ts';

/**
 * The RTMP ingest server and FlvSplitter together, with ffmpeg as the encoder (what OBS is to a
 * seller): what a real publisher sends arrives as FLV that ffprobe and FlvSplitter read.
 */

let dir: string;
let harness: IngestHarness | undefined;
const children = new Set<ChildProcess>();
const sockets: Socket[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ss-rtmp-ingest-'));
});
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  for (const socket of sockets.splice(0)) socket.destroy();
  await harness?.server.close();
  harness = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The ingest server accepting `good-key` (as stream-1) on app `live`. */
async function startServer(options: Partial<RtmpIngestServerOptions> = {}) {
  harness = await startIngestHarness({
    streams: { 'good-key': 'stream-1' },
    handshakeTimeoutMs: 5000,
    ...options,
  });
  return { port: harness.port, logs: harness.logs, published: harness.sessions };
}

/** ffmpeg encoding test video and a tone in real time (-re) and publishing it over RTMP. */
function encode(seconds: number, output: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-nostdin', '-v', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-g', '30', '-c:a', 'aac'],
      ...['-flvflags', 'no_duration_filesize', '-f', 'flv', ...output],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.add(child);
  let stderr = '';
  child.stderr?.on('data', (text) => {
    stderr += text;
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), (seconds + 20) * 1000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(killer);
      children.delete(child);
      resolve({ code, stderr });
    }),
  );
}

function ffprobe(
  file: string,
): Promise<{ streams: Array<Record<string, unknown>>; format: { duration: string } }> {
  return new Promise((resolve, reject) =>
    execFile(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name,width,height:format=duration', '-of', 'json', file],
      { timeout: 20_000 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    ),
  );
}

/** The session's FLV checked the way the media module will use it. */
async function checkStream(entry: HarnessPublish | undefined, seconds: number): Promise<RelayEvent[]> {
  const flv = Buffer.concat(entry?.bytes ?? []);
  const file = path.join(dir, `published-${Date.now()}.flv`);
  writeFileSync(file, flv);
  const probe = await ffprobe(file);
  expect(probe.streams.map((stream) => stream.codec_name).sort()).toEqual(['aac', 'h264']);
  expect(probe.streams.find((stream) => stream.codec_name === 'h264')).toMatchObject({
    width: 640,
    height: 360,
  });
  expect(Math.abs(Number(probe.format.duration) - seconds)).toBeLessThan(0.3);
  const events = new FlvSplitter().push(flv);
  expect(events[0]?.kind).toBe('init');
  expect(events.filter((event) => event.kind === 'group').length).toBeGreaterThanOrEqual(seconds - 1);
  return events;
}

function rawSocket(port: number): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  sockets.push(socket);
  return socket;
}

describe('RTMP ingest with ffmpeg as the encoder', () => {
  it('receives a 4 s H.264 + AAC stream as FLV that ffprobe and FlvSplitter read', async () => {
    const { port, logs, published } = await startServer();
    const started = Date.now();
    const { code, stderr } = await encode(4, [`rtmp://127.0.0.1:${port}/live/good-key`]);
    expect(code, stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(3500); // real time, as an encoder sends
    expect(published).toHaveLength(1);
    const [entry] = published;
    expect(entry?.session.flashVer).toMatch(/^FMLE\/3\.0 \(compatible; Lavf/);
    await expect.poll(() => entry?.end).toEqual({ reason: 'unpublished' });
    const events = await checkStream(entry, 4);
    expect(events.filter((event) => event.kind === 'group').length).toBeGreaterThanOrEqual(3);
    expect(logs.join('\n')).not.toContain('good-key');
  });

  it('refuses a wrong key: ffmpeg fails, no session, no key in the logs', async () => {
    const { port, logs, published } = await startServer();
    const { code, stderr } = await encode(1, [`rtmp://127.0.0.1:${port}/live/bad-key`]);
    expect(code).not.toBe(0);
    expect(stderr).toContain('Unknown or busy stream key.');
    expect(published).toEqual([]);
    expect(logs.some((line) => line.includes('rtmp publish refused'))).toBe(true);
    for (const key of ['bad-key', 'good-key']) expect(logs.join('\n')).not.toContain(key);
  });

  it('drops garbage and a half handshake, then takes a good publisher', async () => {
    const { port, logs, published } = await startServer({ handshakeTimeoutMs: 500 });
    const garbage = rawSocket(port);
    garbage.write(Buffer.concat([Buffer.of(0xff), randomBytes(64 * 1024 - 1)]));
    const half = rawSocket(port);
    half.write(Buffer.concat([Buffer.of(3), randomBytes(700)]));
    await Promise.all([once(garbage, 'close'), once(half, 'close')]);

    const { code, stderr } = await encode(2, [`rtmp://127.0.0.1:${port}/live/good-key`]);
    expect(code, stderr).toBe(0);
    await checkStream(published[0], 2);
    const dropped = logs.filter((line) => line.includes('rtmp connection dropped'));
    expect(dropped).toHaveLength(2);
    expect(logs.join('\n')).not.toContain('good-key');
  });

  it('publishes with a large chunk size and OBS-like connect parameters', async () => {
    const { port, logs, published } = await startServer({ chunkSize: 65_536 });
    const { code, stderr } = await encode(2, [
      ...['-rtmp_app', 'live', '-rtmp_playpath', 'good-key'],
      ...['-rtmp_flashver', 'FMLE/3.0 (compatible; FMSc/1.0)'],
      `rtmp://127.0.0.1:${port}`,
    ]);
    expect(code, stderr).toBe(0);
    expect(published[0]?.session.flashVer).toBe('FMLE/3.0 (compatible; FMSc/1.0)');
    // ffmpeg adopts the chunk size the server announces.
    const startedLine = JSON.parse(logs.find((line) => line.includes('rtmp publish started')) ?? '{}');
    expect(startedLine).toMatchObject({ id: 'stream-1', app: 'live', chunkSize: 65_536 });
    await checkStream(published[0], 2);
  });
});
