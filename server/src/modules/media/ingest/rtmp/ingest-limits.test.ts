import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../../test/eventually.ts';
import { FlvReader } from '../../containers/flv.ts';
import { MessageType } from '../../rtmp-protocol/chunks.ts';
import { RawRtmpClient } from './raw-client.ts';
import type { RtmpIngestServerOptions } from './server.ts';
import { type IngestHarness, startIngestHarness } from './test-harness.ts';

/**
 * What one client may take of the ingest server, through a raw socket against a listening server:
 * memory (chunk sizes, messages begun and not finished) and connections (per address, and how
 * long the RTMP handshake may take).
 */

const harnesses: IngestHarness[] = [];
const clients: RawRtmpClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const harness of harnesses.splice(0)) await harness.server.close();
});

async function start(options: Partial<RtmpIngestServerOptions> = {}): Promise<IngestHarness> {
  const harness = await startIngestHarness(options);
  harnesses.push(harness);
  return harness;
}

async function client(harness: IngestHarness, localAddress?: string): Promise<RawRtmpClient> {
  const connected = await RawRtmpClient.connect(harness.port, localAddress);
  clients.push(connected);
  return connected;
}

async function handshaken(harness: IngestHarness, localAddress?: string): Promise<RawRtmpClient> {
  const connected = await client(harness, localAddress);
  await connected.doHandshake();
  return connected;
}

function warnings(harness: IngestHarness): Array<Record<string, unknown>> {
  return harness.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 'warn');
}

const until = (check: () => boolean, what: string, timeoutMs = 3000) =>
  eventually(what, check, { timeoutMs, intervalMs: 10 });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The header and first chunk of a message of `length` bytes on `chunkStream`, never finished. */
function begin(raw: RawRtmpClient, chunkStream: number, length: number): Buffer {
  return raw.encode(chunkStream, MessageType.dataAmf0, randomBytes(length)).subarray(0, 12 + raw.chunkSize);
}

describe('RTMP ingest limits: memory', () => {
  it('drops a client that sets a chunk size under 128, with a warning', async () => {
    const harness = await start();
    for (const size of [1, 127]) {
      const raw = await handshaken(harness);
      raw.sendChunkSize(size);
      // What the attack sends next: a 2 MB data message in chunks of that size (its first 32 KB).
      const message = raw.encode(4, MessageType.dataAmf0, Buffer.alloc(32 * 1024));
      message.writeUIntBE(2 * 1024 * 1024, 4, 3);
      raw.write(message);
      expect(await raw.closedWithin(1000)).toBeLessThan(1000);
    }
    expect(warnings(harness)).toMatchObject([
      { message: 'rtmp connection dropped', reason: 'error', detail: 'a chunk size of 1 (the least is 128)' },
      {
        message: 'rtmp connection dropped',
        reason: 'error',
        detail: 'a chunk size of 127 (the least is 128)',
      },
    ]);
  });

  it('takes a 1 MB video message sent slowly in 128-byte chunks, audio interleaved', async () => {
    const harness = await start();
    const raw = await handshaken(harness);
    raw.sendChunkSize(128);
    await raw.publish('good-key');
    const video = Buffer.concat([Buffer.of(0x17, 1, 0, 0, 0), randomBytes(1024 * 1024)]);
    const audio = Buffer.concat([Buffer.of(0xaf, 1), randomBytes(300)]);
    const videoBytes = raw.encode(6, MessageType.video, video, 1, 40);
    const audioBytes = raw.encode(4, MessageType.audio, audio, 1, 45);
    // 129 bytes per chunk after the first: pieces of whole chunks, an audio message between two.
    const piece = 12 + 128 + 129 * 200;
    raw.write(videoBytes.subarray(0, piece));
    let audioSent = 0;
    for (let offset = piece; offset < videoBytes.length; offset += 129 * 200) {
      await pause(5);
      raw.write(audioBytes);
      audioSent += 1;
      raw.write(videoBytes.subarray(offset, offset + 129 * 200));
    }
    await until(() => harness.sessions[0]?.bytes.length === audioSent + 1, 'every tag');
    const tags = new FlvReader()
      .push(Buffer.concat(harness.sessions[0]?.bytes ?? []))
      .flatMap((item) => (item.kind === 'tag' ? [item] : []));
    expect(audioSent).toBeGreaterThan(30);
    expect(tags.filter((tag) => tag.type === MessageType.audio)).toHaveLength(audioSent);
    const [received] = tags.filter((tag) => tag.type === MessageType.video);
    expect(received?.timestamp).toBe(40);
    expect(received?.data.equals(video)).toBe(true);
    expect(raw.closed).toBe(false);
    expect(warnings(harness)).toEqual([]);
  });

  it('drops a client whose unfinished messages would hold more than one message and its slack', async () => {
    const harness = await start({ maxMessageBytes: 1024 * 1024 });
    const raw = await handshaken(harness);
    // Two messages of 1 MB begun, one chunk each: 2 MB to hold once they arrive.
    raw.write(begin(raw, 6, 1024 * 1024));
    raw.write(begin(raw, 7, 1024 * 1024));
    expect(await raw.closedWithin(1000)).toBeLessThan(1000);
    expect(warnings(harness)[0]?.detail).toMatch(/^partial messages would hold 2097152 bytes \(the limit is/);
  });

  it('drops a client with more than 16 messages in flight', async () => {
    const harness = await start();
    const raw = await handshaken(harness);
    for (let stream = 4; stream < 21; stream += 1) raw.write(begin(raw, stream, 1000));
    expect(await raw.closedWithin(1000)).toBeLessThan(1000);
    expect(warnings(harness)[0]?.detail).toBe('more than 16 messages in flight');
  });
  it('drops a client that sends more than 1024 messages while its publish is being authorized', async () => {
    const harness = await start({ authorize: () => new Promise(() => {}) });
    const raw = await handshaken(harness);
    await raw.requestPublish('good-key');
    // Empty video messages: a 12-byte header, then one byte (a type-3 header) each.
    raw.write(
      Buffer.concat([raw.encode(6, MessageType.video, Buffer.alloc(0), 1), Buffer.alloc(1100, 0xc6)]),
    );
    expect(await raw.closedWithin(1000)).toBeLessThan(1000);
    expect(warnings(harness)[0]?.detail).toBe('too much arrived before the publish was authorized');
  });
});

describe('RTMP ingest limits: connections', () => {
  it('closes connections past maxConnectionsPerAddress at once; another address still gets in', async () => {
    // Room for twelve: without a cap per address, one address takes it all.
    // Idle sockets: no timeout may close them while the test runs, however slow the machine.
    const harness = await start({
      maxConnections: 12,
      rtmpHandshakeTimeoutMs: 30_000,
      handshakeTimeoutMs: 30_000,
    });
    const idle: RawRtmpClient[] = [];
    for (let i = 0; i < 12; i += 1) idle.push(await client(harness));
    await until(() => warnings(harness).length === 2, 'two refusals');
    for (const extra of idle.slice(10)) expect(await extra.closedWithin(1000)).toBeLessThan(1000);
    expect(warnings(harness)).toMatchObject([
      {
        message: 'rtmp connection refused: too many connections from one address',
        remoteAddress: '127.0.0.1',
        maxConnectionsPerAddress: 10,
      },
      { message: 'rtmp connection refused: too many connections from one address' },
    ]);

    const other = await handshaken(harness, '127.0.0.2');
    await other.publish('good-key');
    expect(harness.sessions[0]?.session.remoteAddress).toBe('127.0.0.2');
    expect(idle.slice(0, 10).filter((socket) => socket.closed)).toEqual([]);
    // One leaves: its address may connect again.
    idle[0]?.destroy();
    await until(() => idle[0]?.closed === true, 'the close');
    await pause(50);
    await handshaken(harness);
    expect(warnings(harness)).toHaveLength(2);
  });

  it('closes a connection that has not finished the RTMP handshake within rtmpHandshakeTimeoutMs', async () => {
    const harness = await start({ rtmpHandshakeTimeoutMs: 200, handshakeTimeoutMs: 10_000 });
    const opened = Date.now();
    const silent = await client(harness);
    const trickling = await client(harness);
    trickling.write(Buffer.concat([Buffer.of(3), randomBytes(1000)]));
    const done = await handshaken(harness);
    const trickle = setInterval(() => trickling.write(randomBytes(1)), 20);
    try {
      for (const raw of [silent, trickling]) {
        await raw.closedWithin(2000);
        expect(Date.now() - opened).toBeGreaterThanOrEqual(150);
      }
    } finally {
      clearInterval(trickle);
    }
    // Past the RTMP handshake, handshakeTimeoutMs (up to the publish) is the one that counts.
    await pause(300);
    expect(done.closed).toBe(false);
    expect(warnings(harness).map(({ reason, phase, detail }) => ({ reason, phase, detail }))).toEqual([
      { reason: 'timeout', phase: 'handshake', detail: 'no RTMP handshake 200 ms after connecting' },
      { reason: 'timeout', phase: 'handshake', detail: 'no RTMP handshake 200 ms after connecting' },
    ]);
  });
});
