import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect as connectTcp, isIP, type LookupFunction, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { FlvTag } from '../containers/flv.ts';
import { type Amf0Object, type Amf0Value, decodeAmf0, encodeAmf0 } from '../rtmp-protocol/amf0.ts';
import {
  ChunkReader,
  DEFAULT_CHUNK_SIZE,
  encodeChunks,
  MessageType,
  type RtmpMessage,
} from '../rtmp-protocol/chunks.ts';

/**
 * An RTMP(S) publisher: connects to an ingest server (YouTube, Twitch, Facebook, a CDN, OBS's
 * own targets), publishes one live stream and sends it FLV tags. It exists so the stream key
 * never has to be handed to another process on its command line (where `ps` shows it to every
 * user of the machine): ffmpeg encodes to FLV on its stdout and this sends it on.
 *
 * It speaks the parts of RTMP 1.0 a publisher needs: the plain handshake (what OBS and ffmpeg
 * use for rtmp:// and rtmps://), connect / releaseStream / FCPublish / createStream / publish,
 * acknowledgements and ping responses.
 */

/** The URL split the way OBS and ffmpeg split it: the app is the first path segment. */
export interface RtmpTarget {
  secure: boolean;
  host: string;
  port: number;
  app: string;
  /** The rest of the path and the query: the secret part. */
  streamKey: string;
  /** The connect command's tcUrl: scheme, host, port and app. */
  tcUrl: string;
}

export function parseRtmpUrl(rtmpUrl: string): RtmpTarget {
  const url = new URL(rtmpUrl);
  const secure = url.protocol === 'rtmps:';
  if (!secure && url.protocol !== 'rtmp:') throw new Error('the URL is not rtmp:// or rtmps://');
  const [app, ...rest] = url.pathname.split('/').filter(Boolean);
  const streamKey = rest.join('/') + url.search;
  if (!app || !streamKey) throw new Error('the URL has no app and stream key');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port ? Number(url.port) : secure ? 443 : 1935;
  return {
    secure,
    host,
    port,
    app: decodeURIComponent(app),
    streamKey: decodeURIComponent(streamKey),
    tcUrl: `${url.protocol}//${url.host}/${app}`,
  };
}

const HANDSHAKE_SIZE = 1536;
const RTMP_VERSION = 3;
/** Chunk size for what we send: big enough that a video frame is a handful of chunks. */
const OUT_CHUNK_SIZE = 4096;
const CONTROL_CHUNK_STREAM = 2;
const COMMAND_CHUNK_STREAM = 3;
const AUDIO_CHUNK_STREAM = 4;
const DATA_CHUNK_STREAM = 5;
const VIDEO_CHUNK_STREAM = 6;
const USER_CONTROL_PING_REQUEST = 6;
const USER_CONTROL_PING_RESPONSE = 7;

export interface RtmpPublisherOptions {
  /** How long connecting, the handshake and publishing may take, and how long the connection may stall. */
  timeoutMs?: number;
  /** The flashVer the server is told (some ingest servers log it). */
  flashVer?: string;
  /** For rtmps://: certificate authorities to trust instead of Node's (a private ingest server). */
  ca?: string | Buffer;
  /** How the host name is resolved (e.g. one that refuses private addresses); Node's by default. */
  lookup?: LookupFunction;
}

interface PendingCommand {
  name: string;
  resolve: (values: Amf0Value[]) => void;
  reject: (error: Error) => void;
}

/**
 * Events: 'drain' when the socket takes more after send() returned false; 'close' once, with an
 * Error when the connection failed or the server ended the stream and none after end().
 */
export class RtmpPublisher extends EventEmitter {
  private readonly socket: Socket;
  private readonly reader = new ChunkReader();
  private handshake: Buffer | undefined = Buffer.alloc(0);
  private readonly pending = new Map<number, PendingCommand>();
  private nextTransaction = 1;
  private streamId = 0;
  private publishing: { resolve: () => void; reject: (error: Error) => void } | undefined;
  private bytesIn = 0;
  private acknowledged = 0;
  private windowSize = 0;
  private failure: Error | undefined;
  /** Whether C2 (the echo of the server's S1) went out. */
  private sentC2 = false;
  private outChunkSize = DEFAULT_CHUNK_SIZE;
  /** Publishing: the server answered NetStream.Publish.Start. */
  private live = false;
  private closed = false;
  private ending = false;

  /** Connects, publishes and resolves once the server answered NetStream.Publish.Start. */
  static async publish(target: RtmpTarget, options: RtmpPublisherOptions = {}): Promise<RtmpPublisher> {
    const publisher = new RtmpPublisher(target, options);
    await publisher.started;
    return publisher;
  }

  private readonly started: Promise<void>;

  private constructor(
    private readonly target: RtmpTarget,
    private readonly options: RtmpPublisherOptions,
  ) {
    super();
    const timeoutMs = options.timeoutMs ?? 15_000;
    this.socket = target.secure
      ? connectTls({
          host: target.host,
          port: target.port,
          servername: isIP(target.host) ? undefined : target.host,
          ca: options.ca,
          lookup: options.lookup,
        })
      : connectTcp({ host: target.host, port: target.port, lookup: options.lookup });
    this.socket.setNoDelay(true);
    this.socket.setTimeout(timeoutMs, () => this.fail(new Error(`no progress for ${timeoutMs} ms`)));
    this.socket.once(target.secure ? 'secureConnect' : 'connect', () => {
      // C0 (the version) and C1 (time, zero, random bytes).
      const c1 = randomBytes(HANDSHAKE_SIZE);
      c1.fill(0, 0, 8);
      this.socket.write(Buffer.concat([Buffer.of(RTMP_VERSION), c1]));
    });
    this.socket.on('data', (bytes: Buffer) => this.received(bytes));
    this.socket.on('drain', () => this.emit('drain'));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('the server closed the connection')));
    this.started = new Promise<void>((resolve, reject) => {
      this.publishing = { resolve, reject };
    });
    // Whoever awaits `started` sees its failure; later failures arrive as 'close'.
    this.started.catch(() => {});
  }

  /** Sends one FLV tag; false when the socket is full (wait for 'drain'). */
  send(tag: FlvTag): boolean {
    if (this.closed || this.ending) return false;
    switch (tag.type) {
      case MessageType.audio:
        return this.write(AUDIO_CHUNK_STREAM, MessageType.audio, tag.data, tag.timestamp);
      case MessageType.video:
        return this.write(VIDEO_CHUNK_STREAM, MessageType.video, tag.data, tag.timestamp);
      case MessageType.dataAmf0: {
        // FLV's onMetaData becomes @setDataFrame("onMetaData", …), which servers keep for players.
        const isMetadata = tag.data.subarray(0, ON_META_DATA.length).equals(ON_META_DATA);
        const payload = isMetadata ? Buffer.concat([encodeAmf0('@setDataFrame'), tag.data]) : tag.data;
        return this.write(DATA_CHUNK_STREAM, MessageType.dataAmf0, payload, tag.timestamp);
      }
      default:
        return true;
    }
  }

  /** Unpublishes and closes the connection; resolves once it is closed. */
  end(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this.live) this.destroy();
    else if (!this.ending) {
      this.ending = true;
      this.command('FCUnpublish', null, this.target.streamKey);
      this.command('deleteStream', null, this.streamId);
      this.socket.end();
    }
    return new Promise((resolve) => this.once('close', () => resolve()));
  }

  /** Drops the connection at once. */
  destroy(): void {
    this.ending = true;
    this.socket.destroy();
  }

  private fail(error: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.failure = this.ending ? undefined : (this.failure ?? error);
    this.socket.destroy();
    const reason = this.failure ?? new Error('closed');
    for (const command of this.pending.values()) command.reject(reason);
    this.pending.clear();
    this.publishing?.reject(reason);
    this.publishing = undefined;
    this.emit('close', this.failure);
  }

  private received(bytes: Buffer): void {
    try {
      if (this.handshake) {
        this.handshake = Buffer.concat([this.handshake, bytes]);
        this.continueHandshake();
        return;
      }
      this.countIn(bytes.length);
      for (const message of this.reader.push(bytes)) this.handle(message);
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private continueHandshake(): void {
    const data = this.handshake as Buffer;
    if (data.length < 1 + HANDSHAKE_SIZE) return;
    if (data[0] !== RTMP_VERSION) throw new Error(`the server speaks RTMP version ${data[0]}`);
    if (!this.sentC2) {
      // C2 echoes S1.
      this.socket.write(data.subarray(1, 1 + HANDSHAKE_SIZE));
      this.sentC2 = true;
    }
    if (data.length < 1 + 2 * HANDSHAKE_SIZE) return;
    const rest = data.subarray(1 + 2 * HANDSHAKE_SIZE);
    this.handshake = undefined;
    this.connect();
    if (rest.length) this.received(rest);
  }

  private async connect(): Promise<void> {
    const size = Buffer.alloc(4);
    size.writeUInt32BE(OUT_CHUNK_SIZE);
    this.control(MessageType.setChunkSize, size);
    this.outChunkSize = OUT_CHUNK_SIZE;
    try {
      await this.call('connect', {
        app: this.target.app,
        type: 'nonprivate',
        flashVer: this.options.flashVer ?? 'FMLE/3.0 (compatible; StreamShop)',
        tcUrl: this.target.tcUrl,
      });
      // What OBS and ffmpeg send before createStream; servers that do not know them answer _error.
      this.command('releaseStream', null, this.target.streamKey);
      this.command('FCPublish', null, this.target.streamKey);
      const [streamId] = await this.call('createStream', null);
      if (typeof streamId !== 'number') throw new Error('createStream answered without a stream id');
      this.streamId = streamId;
      // publish(name, "live") on the new stream; the server answers onStatus.
      this.write(
        COMMAND_CHUNK_STREAM,
        MessageType.commandAmf0,
        encodeAmf0('publish', 0, null, this.target.streamKey, 'live'),
        0,
      );
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Sends a command that expects a _result; resolves with the values after the transaction id. */
  private call(name: string, ...args: Amf0Value[]): Promise<Amf0Value[]> {
    const transaction = this.nextTransaction++;
    return new Promise((resolve, reject) => {
      this.pending.set(transaction, { name, resolve, reject });
      this.write(COMMAND_CHUNK_STREAM, MessageType.commandAmf0, encodeAmf0(name, transaction, ...args), 0);
    });
  }

  /** Sends a command whose answer does not matter. */
  private command(name: string, ...args: Amf0Value[]): void {
    const transaction = this.nextTransaction++;
    this.write(COMMAND_CHUNK_STREAM, MessageType.commandAmf0, encodeAmf0(name, transaction, ...args), 0);
  }

  private control(type: number, payload: Buffer): void {
    this.write(CONTROL_CHUNK_STREAM, type, payload, 0, 0);
  }

  private write(
    chunkStream: number,
    type: number,
    payload: Buffer,
    timestamp: number,
    streamId = this.streamId,
  ) {
    if (this.closed) return false;
    return this.socket.write(
      encodeChunks(chunkStream, { type, streamId, timestamp, payload }, this.outChunkSize),
    );
  }

  /** Acknowledges what arrived each time a window's worth did, as the server asked. */
  private countIn(count: number): void {
    this.bytesIn += count;
    if (this.windowSize > 0 && this.bytesIn - this.acknowledged >= this.windowSize) {
      this.acknowledged = this.bytesIn;
      const sequence = Buffer.alloc(4);
      sequence.writeUInt32BE(this.bytesIn >>> 0);
      this.control(MessageType.acknowledgement, sequence);
    }
  }

  private handle(message: RtmpMessage): void {
    switch (message.type) {
      case MessageType.windowAcknowledgementSize:
        if (message.payload.length >= 4) this.windowSize = message.payload.readUInt32BE(0);
        return;
      case MessageType.userControl:
        if (message.payload.length >= 6 && message.payload.readUInt16BE(0) === USER_CONTROL_PING_REQUEST) {
          const response = Buffer.from(message.payload.subarray(0, 6));
          response.writeUInt16BE(USER_CONTROL_PING_RESPONSE, 0);
          this.control(MessageType.userControl, response);
        }
        return;
      case MessageType.commandAmf0:
        this.handleCommand(decodeAmf0(message.payload));
        return;
      case MessageType.commandAmf3:
        // An AMF3 command message is AMF0 after a format byte.
        this.handleCommand(decodeAmf0(message.payload.subarray(1)));
        return;
      default:
        return; // chunk size (handled by the reader), acknowledgements, bandwidth, data
    }
  }

  private handleCommand([name, transaction, , ...rest]: Amf0Value[]): void {
    if (name === '_result' || name === '_error') {
      const pending = typeof transaction === 'number' ? this.pending.get(transaction) : undefined;
      if (!pending) return;
      this.pending.delete(transaction as number);
      if (name === '_result') pending.resolve(rest);
      else pending.reject(new Error(`${pending.name} was refused: ${describe(rest[0])}`));
      return;
    }
    if (name === 'onStatus') {
      const info = (rest[0] ?? {}) as Amf0Object;
      if (info.code === 'NetStream.Publish.Start') {
        this.live = true;
        this.publishing?.resolve();
        this.publishing = undefined;
      } else if (info.level === 'error') {
        this.fail(new Error(`publishing was refused: ${describe(info)}`));
      }
      return;
    }
    if (name === 'close') this.fail(new Error('the server closed the stream'));
  }
}

function describe(info: Amf0Value): string {
  if (info && typeof info === 'object' && !Array.isArray(info)) {
    const { code, description } = info as Amf0Object;
    return (
      [code, description].filter((part) => typeof part === 'string' && part).join(' ') || 'no reason given'
    );
  }
  return 'no reason given';
}

const ON_META_DATA = encodeAmf0('onMetaData');
