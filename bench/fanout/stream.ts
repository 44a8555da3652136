/**
 * The measured stream: the real server (a child process on a fresh PGlite DATA_DIR, RTMP ingest on
 * a free port), a seller signed up through the API, a stream created through it (POST /api/rooms)
 * and published by ffmpeg as OBS would (the latency bench's encoder settings: H.264 veryfast
 * zerolatency, a keyframe every second, 1.5 Mbit/s or --video-kbps, AAC, FLV over RTMP) from a
 * test picture and a tone, in real time. The server copies the H.264 and sends it to /ws/media as fragmented MP4. The
 * stream's length is raised from the free plan's 1:39 to an hour with SQL before it starts, so one
 * stream lasts the whole run.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { connectToServerDatabase } from '../../server/src/test/support.ts';
import { ENCODER_OUTPUT } from '../latency/encoder.ts';
import { untilLiveFromEncoder } from '../support/until-live.ts';
import {
  type Account,
  type AppServer,
  client,
  createStorage,
  freePort,
  type Storage,
  signUpAll,
  sleep,
  startAppServer,
} from '../support.ts';

export interface LiveStream {
  server: AppServer;
  storage: Storage;
  roomName: string;
  /** ws://…/ws/media?room=<name> */
  mediaUrl: string;
  encoder: ChildProcess;
  /** End Stream through the API, then ffmpeg stopped. */
  end(): Promise<void>;
}

const LIVE_TIMEOUT_MS = 20_000;

function startEncoder(target: string, videoKbps: number): { child: ChildProcess; stderr: () => string } {
  // The latency bench's settings, at this bitrate (its -b:v, -maxrate and -bufsize are 1500k).
  const output = ENCODER_OUTPUT.map((arg) => (arg === '1500k' ? `${videoKbps}k` : arg));
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-re', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30'],
      ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-map', '0:v', '-map', '1:a', ...output, target],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  return { child, stderr: () => stderr };
}

/** The server, the seller and the live stream; `onServer` hears the server as soon as it runs (for the hard cap). */
export async function goLive(
  signal: AbortSignal,
  videoKbps: number,
  onServer: (s: AppServer, st: Storage) => void,
) {
  const storage = await createStorage(undefined, 'fanout');
  const rtmpPort = await freePort();
  const server = await startAppServer(storage, {
    signal,
    env: { RTMP_PORT: String(rtmpPort), RTMP_URL: `rtmp://127.0.0.1:${rtmpPort}/live` },
  });
  onServer(server, storage);
  const api = client(server.base, signal);
  const [seller] = (await signUpAll(api, [`fanout_${randomInt(1e9)}`], {
    octet: 100 + randomInt(150),
    signal,
  })) as [Account];
  const room = await api.request('POST', '/api/rooms', {
    cookie: seller.cookie,
    body: { title: 'Fan-out bench' },
  });
  if (room.status !== 201) throw new Error(`POST /api/rooms: ${room.status} ${JSON.stringify(room.body)}`);
  const roomName = room.body.roomName as string;
  const db = await connectToServerDatabase({ dataDir: storage.dataDir });
  try {
    await db.query('update streams set duration_sec = 3600 where room_name = $1', [roomName]);
  } finally {
    await db.end().catch(() => {});
  }
  const ingest = await api.request('GET', `/api/streams/${roomName}/ingest`, { cookie: seller.cookie });
  if (ingest.status !== 200) throw new Error(`GET /api/streams/${roomName}/ingest: ${ingest.status}`);
  const encoder = startEncoder(`${ingest.body.rtmpUrl}/${ingest.body.streamKey}`, videoKbps);
  await untilLiveFromEncoder(api, roomName, encoder, LIVE_TIMEOUT_MS, sleep);
  const exited = new Promise<void>((resolve) => encoder.child.once('exit', () => resolve()));
  const live: LiveStream = {
    server,
    storage,
    roomName,
    mediaUrl: `${server.base.replace(/^http/, 'ws')}/ws/media?room=${encodeURIComponent(roomName)}`,
    encoder: encoder.child,
    async end() {
      await api.request('POST', `/api/streams/${roomName}/end`, { cookie: seller.cookie });
      encoder.child.kill('SIGTERM');
      const timer = setTimeout(() => encoder.child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  return live;
}
