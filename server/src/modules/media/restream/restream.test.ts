import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../../../test/eventually.ts';
import { freePort } from '../../../test/ports.ts';
import { type RtmpReceiver, startRtmpReceiver } from '../../../test/rtmp-receiver.ts';
import { buildTestApp, listenOnLoopback, signUp, type TestApp } from '../../../test/test-app.ts';
import { RoomRelay } from '../delivery/ws/relay.ts';
import {
  Restream,
  type RestreamLogger,
  redactRtmpUrl,
  relayStartOf,
  runningRestreams,
  scrubRtmpUrl,
} from './restream.ts';

const fixture = readFileSync(new URL('../containers/fixtures/mediarecorder-vp8-opus.webm', import.meta.url));
const chunkSizes: number[] = JSON.parse(
  readFileSync(new URL('../containers/fixtures/mediarecorder-vp8-opus.chunks.json', import.meta.url), 'utf8'),
);

const until = (check: () => boolean, what: string, timeoutMs = 30_000) => eventually(what, check, timeoutMs);

/** The codecs of a live RTMP stream, as a player (ffprobe) sees them. */
function probeCodecs(url: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      'ffprobe',
      // Codecs are known from the first packets (the sequence headers): no need to read more.
      ['-v', 'error', '-rw_timeout', '15000000', '-probesize', '4096'].concat([
        '-show_entries',
        'stream=codec_name',
        '-of',
        'csv=p=0',
        url,
      ]),
      { timeout: 45_000 },
      (error, stdout) =>
        error
          ? reject(error)
          : resolve(
              stdout
                .split('\n')
                .filter(Boolean)
                .map((s) => s.trim())
                .sort(),
            ),
    );
  });
}

/** The flags of the first video packet a player gets from a live RTMP stream ('K' for a keyframe). */
function firstVideoPacketFlags(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'ffprobe',
      ['-v', 'error', '-rw_timeout', '15000000', '-probesize', '4096', '-select_streams', 'v:0'].concat([
        '-read_intervals',
        '%+#1',
        '-show_entries',
        'packet=flags',
        '-of',
        'csv=p=0',
        url,
      ]),
      { timeout: 45_000 },
      (error, stdout) => (error ? reject(error) : resolve(stdout.trim())),
    );
  });
}

/** Every process's command line, as `ps` shows them to any user. */
function processList(): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('ps', ['-eo', 'args', '--no-headers', '-ww'], (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
}

let t: TestApp;
let base: string;
let receiver: RtmpReceiver;
let rtmpPort: number;
const events = (event: string, streamPath: string) => receiver.events(event, streamPath);

beforeAll(async () => {
  t = await buildTestApp({ restreamAllowedHosts: ['127.0.0.1'] }, { autoEnd: false });
  base = await listenOnLoopback(t.app);
  receiver = await startRtmpReceiver();
  rtmpPort = receiver.port;
});
afterAll(async () => {
  await t?.close();
  await receiver?.stop();
});

async function proUser() {
  const user = await signUp(t.app);
  await t.database.pool.query(`update users set plan = 'pro' where id = $1`, [user.user.id]);
  return user;
}

async function liveRoom(cookie: string, rtmpUrl: string | undefined): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rooms',
    headers: { cookie },
    payload: { title: 'Restream test', ...(rtmpUrl ? { rtmpUrl } : {}) },
  });
  expect(created.statusCode).toBe(201);
  const room = created.json().roomName as string;
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/streams/${room}/start`,
    headers: { cookie },
  });
  expect(started.statusCode).toBe(200);
  return room;
}

async function connectPublisher(room: string, cookie: string) {
  const socket = new WebSocket(`${base}/ws/publish?room=${room}`, { headers: { cookie } });
  let ready = false;
  socket.on('message', (data, isBinary) => {
    if (!isBinary && JSON.parse(data.toString()).type === 'publish_ready') ready = true;
  });
  await until(() => ready, 'publish_ready');
  return socket;
}

/** Sends the fixture in MediaRecorder's chunk sizes. */
async function publish(socket: WebSocket) {
  let offset = 0;
  for (const size of chunkSizes) {
    socket.send(fixture.subarray(offset, offset + size));
    offset += size;
    await new Promise((r) => setTimeout(r, 5));
  }
}

const restreamOf = (room: string) => runningRestreams().find((r) => r.roomName === room);

describe('restream to an RTMP URL (pro)', () => {
  it('pushes H.264/AAC to the RTMP receiver, restarts a killed ffmpeg, and follows a reconnect', async () => {
    const owner = await proUser();
    const key = `key-${Math.random().toString(36).slice(2)}`;
    const streamPath = `/live/${key}`;
    const rtmpUrl = `rtmp://127.0.0.1:${rtmpPort}${streamPath}`;
    const room = await liveRoom(owner.cookie, rtmpUrl);

    const publisher = await connectPublisher(room, owner.cookie);
    expect(restreamOf(room)).toBeDefined();
    await publish(publisher);
    await until(() => events('postPublish', streamPath) >= 1, 'the receiver to get a publish');
    expect(await probeCodecs(rtmpUrl)).toEqual(['aac', 'h264']);

    // The stream key is on no command line: not ffmpeg's, nor any other process's (`ps`).
    const ffmpegPid = restreamOf(room)?.pid;
    expect(ffmpegPid).toBeTypeOf('number');
    const cmdline = readFileSync(`/proc/${ffmpegPid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain('pipe:1');
    for (const found of [cmdline.join(' '), await processList()]) {
      expect(found).not.toContain(key);
      expect(found).not.toContain(`127.0.0.1:${rtmpPort}`);
    }

    // ffmpeg dies mid-stream: a new one starts (after the 1 s backoff) from the relay's snapshot.
    const first = restreamOf(room);
    const pid = first?.pid;
    expect(pid).toBeTypeOf('number');
    process.kill(pid as number, 'SIGKILL');
    await until(() => events('donePublish', streamPath) >= 1, 'the receiver to see the publish end');
    await until(() => events('postPublish', streamPath) >= 2, 'a second publish after the restart');
    expect(first?.starts).toBeGreaterThanOrEqual(2);
    expect(first?.pid).not.toBe(pid);
    expect(await probeCodecs(rtmpUrl)).toEqual(['aac', 'h264']);
    // Encoded from the snapshot (init segment + current keyframe group): it starts with a keyframe.
    expect(await firstVideoPacketFlags(rtmpUrl)).toMatch(/^K/);

    // The broadcaster reconnects: the old ffmpeg ends, a new one publishes the new WebM stream.
    const second = await connectPublisher(room, owner.cookie);
    await publish(second);
    await until(() => events('postPublish', streamPath) >= 3, 'a publish after the reconnect');
    const third = restreamOf(room);
    expect(third).toBeDefined();
    expect(third).not.toBe(first);
    expect(runningRestreams().filter((r) => r.roomName === room)).toHaveLength(1);

    // The broadcaster leaves: ffmpeg ends its input, and the receiver sees the publish end.
    second.close();
    publisher.close();
    await until(() => restreamOf(room) === undefined, 'the restream to stop');
    await until(() => events('donePublish', streamPath) >= 3, 'the receiver to see the end');
  }, 180_000);

  it('does not restream a stream on the free plan whatever its RTMP URL, nor one without a URL', async () => {
    const owner = await proUser();
    const downgraded = await liveRoom(owner.cookie, `rtmp://127.0.0.1:${rtmpPort}/live/downgraded`);
    const plain = await liveRoom(owner.cookie, undefined);
    await t.database.pool.query(`update streams set plan = 'free' where room_name = $1`, [downgraded]);
    for (const room of [downgraded, plain]) {
      const publisher = await connectPublisher(room, owner.cookie);
      await publish(publisher);
      expect(restreamOf(room)).toBeUndefined();
      publisher.close();
    }
    expect(events('prePublish', '/live/downgraded')).toBe(0);
  }, 60_000);
});

describe('Restream', () => {
  function recordingLogger() {
    const lines: Array<{ level: string; object: Record<string, unknown>; message: string }> = [];
    const log: RestreamLogger = {
      info: (object, message) => lines.push({ level: 'info', object: object as never, message }),
      warn: (object, message) => lines.push({ level: 'warn', object: object as never, message }),
    };
    return { lines, log };
  }

  it('restarts a failing ffmpeg with doubling backoff and never logs the stream key', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ss-restream-'));
    const fake = path.join(dir, 'ffmpeg');
    const argsFile = path.join(dir, 'args');
    // Notes its arguments, then fails at once, the way ffmpeg does, naming its last argument.
    writeFileSync(
      fake,
      `#!/bin/sh\necho "$@" >> ${argsFile}\nfor last; do :; done\necho "$last: Broken pipe" >&2\nexit 1\n`,
    );
    chmodSync(fake, 0o755);
    const { lines, log } = recordingLogger();
    const resumes: number[] = [];
    const restream = new Restream({
      roomName: 'room-1',
      rtmpUrl: 'rtmps://user:hunter22@live.example:443/app/sEcReT-KEY?token=tok123',
      log,
      resume: () => {
        resumes.push(Date.now());
        return undefined;
      },
      ffmpegPath: fake,
      backoffMs: 20,
      maxBackoffMs: 80,
    });
    let args: string;
    try {
      // Five starts, each of which has noted its arguments (the fifth may still be starting).
      const noted = () =>
        existsSync(argsFile) ? readFileSync(argsFile, 'utf8').split('\n').filter(Boolean) : [];
      await until(() => restream.starts >= 5 && noted().length >= 5, 'five starts', 20_000);
    } finally {
      await restream.stop();
      args = readFileSync(argsFile, 'utf8');
      rmSync(dir, { recursive: true, force: true });
    }
    const exits = lines.filter((l) => l.level === 'warn');
    expect(exits.slice(0, 4).map((l) => l.object.restartInMs)).toEqual([20, 40, 80, 80]);
    expect(exits[0]?.object.stderr).toBe('pipe:1: Broken pipe');
    // ffmpeg is never given the URL: it writes FLV to its stdout.
    expect(args.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(5);
    for (const secret of ['rtmp', 'live.example', 'sEcReT', 'tok123', 'hunter22'])
      expect(args).not.toContain(secret);
    expect(resumes.length).toBeGreaterThanOrEqual(5);
    const logged = JSON.stringify(lines);
    for (const secret of ['sEcReT', 'tok123', 'hunter22']) expect(logged).not.toContain(secret);
    expect(runningRestreams()).not.toContain(restream);
  });

  it('survives a missing ffmpeg binary', async () => {
    const { lines, log } = recordingLogger();
    const restream = new Restream({
      roomName: 'room-2',
      rtmpUrl: 'rtmp://127.0.0.1:1/live/key',
      log,
      resume: () => undefined,
      ffmpegPath: '/nonexistent/ffmpeg',
      backoffMs: 10,
      maxBackoffMs: 10,
    });
    restream.push({ kind: 'init', bytes: Buffer.from('x') });
    await until(() => lines.filter((l) => l.level === 'warn').length >= 2, 'two failed starts', 10_000);
    await restream.stop();
    expect(lines.find((l) => l.level === 'warn')?.object.error).toContain('ENOENT');
  });

  it('restarts ffmpeg when the RTMP server refuses the connection, logging the reason without the key', async () => {
    const { lines, log } = recordingLogger();
    const closedPort = await freePort();
    const restream = new Restream({
      roomName: 'room-3',
      rtmpUrl: `rtmp://127.0.0.1:${closedPort}/live/sEcReT-KEY`,
      log,
      resume: () => undefined,
      backoffMs: 10,
      maxBackoffMs: 10,
    });
    try {
      await until(() => lines.filter((l) => l.level === 'warn').length >= 2, 'two failed starts', 20_000);
    } finally {
      await restream.stop();
    }
    const exit = lines.find((l) => l.level === 'warn')?.object;
    expect(exit?.publishError).toContain('ECONNREFUSED');
    expect(exit?.signal).toBe('SIGKILL');
    expect(exit?.rtmpUrl).toBe(`rtmp://127.0.0.1:${closedPort}/live/***`);
    expect(JSON.stringify(lines)).not.toContain('sEcReT');
  });

  it('redacts the stream key from RTMP URLs', () => {
    expect(redactRtmpUrl('rtmp://a.rtmp.youtube.com/live2/abcd-efgh-ijkl')).toBe(
      'rtmp://a.rtmp.youtube.com/live2/***',
    );
    expect(redactRtmpUrl('rtmps://live-api-s.facebook.com:443/rtmp/FB-123?s_bl=1&a=b')).toBe(
      'rtmps://live-api-s.facebook.com:443/rtmp/***',
    );
    expect(redactRtmpUrl('not a url')).toBe('rtmp://***');
    expect(scrubRtmpUrl('Error opening rtmp://h/app/k3y and k3y again', 'rtmp://h/app/k3y')).toBe(
      'Error opening rtmp://h/app/*** and *** again',
    );
  });

  it('starts ffmpeg from the init segment and the current group, its Cluster start first', () => {
    const relay = new RoomRelay();
    expect(relayStartOf(relay.snapshot())).toBeUndefined();
    const b = (s: string) => Buffer.from(s);
    relay.apply({ kind: 'reset', mimeType: 'video/webm' });
    relay.apply({ kind: 'init', bytes: b('INIT.') });
    relay.apply({ kind: 'append', bytes: b('before.') });
    expect(relayStartOf(relay.snapshot())).toEqual({ bytes: b('INIT.'), inGroup: false });
    relay.apply({ kind: 'group', start: [b('CLUSTER.'), b('TIME.')], keyframe: b('KEY.') });
    relay.apply({ kind: 'append', bytes: b('next.') });
    expect(relayStartOf(relay.snapshot())).toEqual({
      bytes: b('INIT.CLUSTER.TIME.KEY.next.'),
      inGroup: true,
    });
  });
});
