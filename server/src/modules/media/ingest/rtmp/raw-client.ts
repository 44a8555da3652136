import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { type Amf0Value, decodeAmf0, encodeAmf0 } from '../../rtmp-protocol/amf0.ts';
import {
  ChunkReader,
  DEFAULT_CHUNK_SIZE,
  encodeChunks,
  MessageType,
  type RtmpMessage,
} from '../../rtmp-protocol/chunks.ts';

/**
 * For tests: a TCP client speaking RTMP by hand to the ingest server, byte by byte if need be, so
 * that a test can send what no encoder would (tiny chunk sizes, messages begun and never
 * finished, a handshake that never ends). It reads what the server answers as RTMP messages.
 */

const HANDSHAKE_REPLY = 1 + 2 * 1536;

export class RawRtmpClient {
  /** What the server sent, as messages, once the handshake is over. */
  readonly messages: RtmpMessage[] = [];
  /** The chunk size this client sends with (sendChunkSize() changes it). */
  chunkSize = DEFAULT_CHUNK_SIZE;
  private readonly reader = new ChunkReader();
  private handshake: Buffer | undefined;
  private handshakeDone: (() => void) | undefined;
  private readonly closedAt: Promise<number>;

  /** Connects from `localAddress` (any of 127/8 on Linux) when given. */
  static async connect(port: number, localAddress?: string): Promise<RawRtmpClient> {
    const client = new RawRtmpClient(connect({ host: '127.0.0.1', port, localAddress }));
    await once(client.socket, 'connect');
    return client;
  }

  private constructor(readonly socket: Socket) {
    socket.on('error', () => {});
    socket.on('data', (bytes: Buffer) => this.received(bytes));
    this.closedAt = new Promise((resolve) => socket.once('close', () => resolve(Date.now())));
  }

  /** C0 and C1 out, S0 S1 S2 in, C2 out. */
  async doHandshake(): Promise<void> {
    this.handshake = Buffer.alloc(0);
    const done = new Promise<void>((resolve) => {
      this.handshakeDone = resolve;
    });
    this.socket.write(Buffer.concat([Buffer.of(3), randomBytes(1536)]));
    await done;
    this.socket.write(randomBytes(1536));
  }

  write(bytes: Buffer): boolean {
    return this.socket.write(bytes);
  }

  /** A message as chunks of this client's chunk size. */
  encode(chunkStream: number, type: number, payload: Buffer, streamId = 0, timestamp = 0): Buffer {
    return encodeChunks(chunkStream, { type, streamId, timestamp, payload }, this.chunkSize);
  }

  /** Set Chunk Size: this client sends with `size` from now on. */
  sendChunkSize(size: number): void {
    const payload = Buffer.alloc(4);
    payload.writeUInt32BE(size);
    this.write(this.encode(2, MessageType.setChunkSize, payload));
    this.chunkSize = size;
  }

  /** An AMF0 command on chunk stream 3. */
  command(streamId: number, ...values: Amf0Value[]): void {
    this.write(this.encode(3, MessageType.commandAmf0, encodeAmf0(...values), streamId));
  }

  /** connect, createStream, then publish(key) sent: resolves before the server answers it. */
  async requestPublish(key: string, app = 'live'): Promise<void> {
    const connect = { app, type: 'nonprivate', flashVer: 'FMLE/3.0 (raw)', tcUrl: 'rtmp://x/' };
    this.command(0, 'connect', 1, connect);
    await this.until((values) => values[0] === '_result' && values[1] === 1);
    this.command(0, 'createStream', 2, null);
    await this.until((values) => values[0] === '_result' && values[1] === 2);
    this.command(1, 'publish', 0, null, key, 'live');
  }

  /** requestPublish(), then resolves at NetStream.Publish.Start (rejects on another answer). */
  async publish(key: string, app = 'live'): Promise<void> {
    await this.requestPublish(key, app);
    const [, , , status] = await this.until((values) => values[0] === 'onStatus');
    const code = (status as { code?: string } | undefined)?.code;
    if (code !== 'NetStream.Publish.Start') throw new Error(`the publish was answered ${code}`);
  }

  /** The first command from the server (decoded) that `match` accepts. */
  async until(match: (values: Amf0Value[]) => boolean, timeoutMs = 5000): Promise<Amf0Value[]> {
    const deadline = Date.now() + timeoutMs;
    for (let seen = 0; ; ) {
      for (; seen < this.messages.length; seen += 1) {
        const message = this.messages[seen] as RtmpMessage;
        if (message.type !== MessageType.commandAmf0) continue;
        const values = decodeAmf0(message.payload);
        if (match(values)) return values;
      }
      if (this.socket.destroyed) throw new Error('the server closed the connection');
      if (Date.now() > deadline) throw new Error('no such answer from the server');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Resolves with how long the server took to close the connection; rejects past `timeoutMs`. */
  closedWithin(timeoutMs: number): Promise<number> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`still open after ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([this.closedAt.then((at) => Math.max(0, at - started)), late]).finally(() =>
      clearTimeout(timer),
    );
  }

  get closed(): boolean {
    return this.socket.destroyed;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private received(bytes: Buffer): void {
    if (this.handshake) {
      this.handshake = Buffer.concat([this.handshake, bytes]);
      if (this.handshake.length < HANDSHAKE_REPLY) return;
      const rest = this.handshake.subarray(HANDSHAKE_REPLY);
      this.handshake = undefined;
      this.handshakeDone?.();
      if (rest.length === 0) return;
      bytes = rest;
    }
    this.messages.push(...this.reader.push(bytes));
  }
}
