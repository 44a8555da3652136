import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { type Amf0Object, type Amf0Value, decodeAmf0, encodeAmf0 } from '../../rtmp-protocol/amf0.ts';
import {
  DEFAULT_CHUNK_SIZE,
  encodeChunks,
  MessageType,
  type RtmpMessage,
} from '../../rtmp-protocol/chunks.ts';
import { BoundedChunkReader, RtmpLimitError } from './bounded-chunks.ts';
import { HandshakeError, ServerHandshake } from './handshake.ts';
import type { ConnectionSettings, PublishDecision, PublishRefused } from './ingest-types.ts';
import { type PublishEndReason, PublishSession, type RtmpPublishSession } from './publish-session.ts';

/**
 * One TCP connection to the RTMP ingest server: the handshake, then the command flow of a
 * publisher (OBS, ffmpeg, hardware encoders): connect → releaseStream / FCPublish / createStream
 * → publish(key) → authorize → NetStream.Publish.Start, media until FCUnpublish / deleteStream
 * or the connection ends. One publish per connection; nothing is played back.
 *
 * The stream key is never logged and never in an error: log lines name it by `keyId`, the first
 * 12 hex digits of its SHA-256.
 */

const CONTROL_CHUNK_STREAM = 2;
const COMMAND_CHUNK_STREAM = 3;
const STATUS_CHUNK_STREAM = 5;
/** The message stream createStream hands out (one publish per connection). */
const PUBLISH_STREAM = 1;
/** Window Acknowledgement Size and Set Peer Bandwidth (what FMS, nginx-rtmp and SRS send). */
const WINDOW_SIZE = 2_500_000;
const PEER_BANDWIDTH_DYNAMIC = 2;
const STREAM_BEGIN = 0;
const PING_REQUEST = 6;
const PING_RESPONSE = 7;
const MAX_CHUNK_STREAMS = 64;
/** Messages kept while authorize() decides (encoders wait for Publish.Start before media). */
const MAX_HELD_MESSAGES = 1024;
/** How long a refused or unpublished publisher has to read the answer before the socket goes. */
const CLOSE_GRACE_MS = 1000;

export const keyIdOf = (streamKey: string) =>
  createHash('sha256').update(streamKey).digest('hex').slice(0, 12);

type Phase = 'handshake' | 'connect' | 'connected' | 'authorizing' | 'publishing' | 'closing';

export interface IngestConnectionSettings extends ConnectionSettings {
  /** From the TCP connection to the end of RTMP's own handshake (C0 C1 in, S0 S1 S2 out, C2 in). */
  rtmpHandshakeTimeoutMs: number;
}

export class IngestConnection {
  private phase: Phase = 'handshake';
  private readonly handshake = new ServerHandshake();
  private readonly reader: BoundedChunkReader;
  private readonly setupTimer: NodeJS.Timeout;
  private readonly handshakeTimer: NodeJS.Timeout;
  private outChunkSize = DEFAULT_CHUNK_SIZE;
  private bytesIn = 0;
  private acknowledged = 0;
  private peerWindow = WINDOW_SIZE;
  private app = '';
  private flashVer: string | undefined;
  /** Only to take it out of messages that might quote it. */
  private streamKey: string | undefined;
  private keyId: string | undefined;
  private session: PublishSession | undefined;
  /** Messages that arrived while authorize() was deciding. */
  private held: RtmpMessage[] = [];
  private heldBytes = 0;
  private endReason: PublishEndReason = 'disconnected';
  private endDetail: string | undefined;
  readonly remoteAddress: string;
  readonly remotePort: number;

  constructor(
    private readonly socket: Socket,
    private readonly settings: IngestConnectionSettings,
    onClosed: () => void,
  ) {
    this.remoteAddress = socket.remoteAddress ?? '';
    this.remotePort = socket.remotePort ?? 0;
    this.reader = new BoundedChunkReader({
      maxMessageBytes: settings.maxMessageBytes,
      maxChunkStreams: MAX_CHUNK_STREAMS,
    });
    socket.setNoDelay(true);
    socket.setTimeout(settings.idleTimeoutMs, () => this.abort('timeout', 'nothing arrived in time'));
    this.setupTimer = setTimeout(
      () => this.abort('timeout', `not publishing ${settings.handshakeTimeoutMs} ms after connecting`),
      settings.handshakeTimeoutMs,
    );
    // An idle or trickling socket takes a connection slot: RTMP's handshake has a shorter time.
    const handshakeMs = settings.rtmpHandshakeTimeoutMs;
    this.handshakeTimer = setTimeout(() => {
      if (this.phase === 'handshake')
        this.abort('timeout', `no RTMP handshake ${handshakeMs} ms after connecting`);
    }, handshakeMs);
    socket.on('data', (bytes: Buffer) => this.received(bytes));
    socket.on('error', () => {}); // a reset or broken pipe: 'close' follows
    socket.once('close', () => {
      clearTimeout(this.setupTimer);
      clearTimeout(this.handshakeTimer);
      this.endSession(this.endReason, this.endDetail);
      onClosed();
    });
  }

  /** The live session, if publishing. */
  get publishing(): RtmpPublishSession | undefined {
    return this.session && !this.session.ended ? this.session : undefined;
  }

  /** Closes the connection for good (the server is closing). */
  shutdown(): void {
    this.endReason = 'server-closed';
    this.socket.destroy();
  }

  private fields(extra: object = {}): object {
    return {
      remoteAddress: this.remoteAddress,
      ...(this.keyId ? { keyId: this.keyId } : {}),
      ...(this.session ? { id: this.session.id, app: this.session.app } : {}),
      ...extra,
    };
  }

  private log(level: 'info' | 'warn', message: string, extra: object = {}): void {
    this.settings.log[level](this.fields(extra), message);
  }

  /** Drops the connection for a fault of the peer's: a warning, without the key. */
  private abort(reason: PublishEndReason, detail: string): void {
    if (this.socket.destroyed) return;
    this.endReason = reason;
    this.endDetail = this.redact(detail);
    this.log('warn', 'rtmp connection dropped', { reason, detail: this.endDetail, phase: this.phase });
    this.socket.destroy();
  }

  private redact(text: string): string {
    return this.streamKey ? text.split(this.streamKey).join('[stream key]') : text;
  }

  private received(bytes: Buffer): void {
    try {
      let rest = bytes;
      if (this.phase === 'handshake') {
        const step = this.handshake.push(bytes);
        if (step.reply) this.socket.write(step.reply);
        if (!step.done) return;
        this.phase = 'connect';
        clearTimeout(this.handshakeTimer);
        rest = step.rest;
      }
      this.countIn(rest.length);
      for (const message of this.reader.push(rest)) {
        // Refused or unpublished: whatever the peer still sends is not read.
        if (this.socket.destroyed || this.phase === 'closing') return;
        if (this.phase === 'authorizing') this.hold(message);
        else this.handle(message);
      }
    } catch (error) {
      const known = error instanceof HandshakeError || error instanceof RtmpLimitError;
      const detail = error instanceof Error ? error.message : String(error);
      this.abort('error', known ? detail : `unreadable: ${detail}`);
    }
  }

  /** Acknowledges each window's worth of bytes received (the peer's window, else ours). */
  private countIn(count: number): void {
    this.bytesIn += count;
    if (this.bytesIn - this.acknowledged < this.peerWindow) return;
    this.acknowledged = this.bytesIn;
    this.control(MessageType.acknowledgement, uint32(this.bytesIn >>> 0));
  }

  private hold(message: RtmpMessage): void {
    this.held.push(message);
    this.heldBytes += message.payload.length;
    if (this.heldBytes > this.settings.maxMessageBytes || this.held.length > MAX_HELD_MESSAGES)
      throw new RtmpLimitError('too much arrived before the publish was authorized');
  }

  private handle(message: RtmpMessage): void {
    switch (message.type) {
      case MessageType.windowAcknowledgementSize: {
        const size = message.payload.length >= 4 ? message.payload.readUInt32BE(0) : 0;
        if (size > 0) this.peerWindow = size;
        return;
      }
      case MessageType.userControl:
        if (message.payload.length >= 6 && message.payload.readUInt16BE(0) === PING_REQUEST) {
          const response = Buffer.from(message.payload.subarray(0, 6));
          response.writeUInt16BE(PING_RESPONSE, 0);
          this.control(MessageType.userControl, response);
        }
        return;
      case MessageType.commandAmf0:
        this.command(decodeAmf0(message.payload));
        return;
      case MessageType.commandAmf3:
        this.command(decodeAmf0(message.payload.subarray(1)));
        return;
      default:
        // Media and data: only while publishing. Set Chunk Size is the reader's; the rest is ignored.
        if (this.phase === 'publishing') this.media(message);
        return;
    }
  }

  private media(message: RtmpMessage): void {
    try {
      this.session?.write(message);
    } catch (error) {
      // A 'data' listener threw: the stream cannot go on.
      this.abort('error', `the stream's consumer failed: ${error instanceof Error ? error.message : error}`);
    }
  }

  private command([name, transaction, object, ...args]: Amf0Value[]): void {
    const id = typeof transaction === 'number' ? transaction : 0;
    if (name === 'connect') {
      this.connect(id, object);
      return;
    }
    if (this.phase === 'connect') throw new Error(`${String(name).slice(0, 32)} before connect`);
    switch (name) {
      case 'releaseStream':
      case 'FCPublish':
        this.call('_result', id, null);
        return;
      case 'createStream':
        this.call('_result', id, null, PUBLISH_STREAM);
        return;
      case 'publish':
        if (this.phase !== 'connected') throw new Error('a second publish on one connection');
        this.phase = 'authorizing';
        void this.authorize(typeof args[0] === 'string' ? args[0] : '');
        return;
      case 'FCUnpublish':
      case 'deleteStream':
      case 'closeStream':
        this.unpublish(name === 'deleteStream');
        return;
      case 'play':
      case 'play2':
        throw new Error('playing is not served here');
      default:
        // Commands we do not know: an answer for those that wait for one.
        if (id > 0) this.call('_error', id, null, { level: 'error', code: 'NetConnection.Call.Failed' });
    }
  }

  private connect(id: number, object: Amf0Value): void {
    if (this.phase !== 'connect') throw new Error('a second connect');
    const properties: Amf0Object =
      object && typeof object === 'object' && !Array.isArray(object) ? object : {};
    this.app = typeof properties.app === 'string' ? properties.app : '';
    this.flashVer = typeof properties.flashVer === 'string' ? properties.flashVer.slice(0, 100) : undefined;
    const objectEncoding = typeof properties.objectEncoding === 'number' ? properties.objectEncoding : 0;
    this.control(MessageType.windowAcknowledgementSize, uint32(WINDOW_SIZE));
    this.control(
      MessageType.setPeerBandwidth,
      Buffer.concat([uint32(WINDOW_SIZE), Buffer.of(PEER_BANDWIDTH_DYNAMIC)]),
    );
    this.control(MessageType.setChunkSize, uint32(this.settings.chunkSize));
    this.outChunkSize = this.settings.chunkSize;
    this.call(
      '_result',
      id,
      { fmsVer: 'FMS/3,0,1,123', capabilities: 31 },
      {
        level: 'status',
        code: 'NetConnection.Connect.Success',
        description: 'Connection succeeded.',
        objectEncoding,
      },
    );
    this.phase = 'connected';
  }

  private async authorize(streamKey: string): Promise<void> {
    this.streamKey = streamKey;
    this.keyId = keyIdOf(streamKey);
    const peer = { remoteAddress: this.remoteAddress, remotePort: this.remotePort, flashVer: this.flashVer };
    let decision: PublishDecision = { ok: false, code: 'BadName' };
    try {
      if (streamKey) decision = await this.settings.authorize(this.app, streamKey, peer);
    } catch (error) {
      const detail = this.redact(error instanceof Error ? error.message : String(error));
      this.log('warn', 'rtmp publish authorization failed', { detail });
      decision = { ok: false, code: 'Denied' };
    }
    if (this.socket.destroyed) return;
    if (!decision.ok) {
      this.refuse(decision.code);
      return;
    }
    try {
      this.start(decision.id);
    } catch (error) {
      this.abort('error', error instanceof Error ? error.message : String(error));
    }
  }

  private refuse(code: PublishRefused['code']): void {
    this.phase = 'closing';
    this.log('warn', 'rtmp publish refused', { code, flashVer: this.flashVer });
    const description = code === 'BadName' ? 'Unknown or busy stream key.' : 'Publishing is not allowed.';
    this.status('error', `NetStream.Publish.${code}`, description);
    this.closeSoon();
  }

  private start(id: string): void {
    const info = { id, app: this.app, remoteAddress: this.remoteAddress, remotePort: this.remotePort };
    const session = new PublishSession({ ...info, flashVer: this.flashVer }, (reason) => {
      this.endReason = 'kicked';
      this.log('info', 'rtmp publisher kicked', { reason: this.redact(reason) });
      this.socket.destroy();
    });
    this.session = session;
    this.phase = 'publishing';
    clearTimeout(this.setupTimer);
    this.settings.onPublish(session);
    if (session.ended) return;
    this.control(
      MessageType.userControl,
      Buffer.concat([Buffer.of(0, STREAM_BEGIN), uint32(PUBLISH_STREAM)]),
    );
    this.status('status', 'NetStream.Publish.Start', 'Publishing started.');
    this.log('info', 'rtmp publish started', { flashVer: this.flashVer, chunkSize: this.reader.chunkSize });
    const held = this.held;
    this.held = [];
    for (const message of held) this.handle(message);
  }

  private endSession(reason: PublishEndReason, detail?: string): void {
    if (!this.session || this.session.ended) return;
    this.session.finish({ reason, detail });
    this.log('info', 'rtmp publish ended', { reason });
  }

  private unpublish(deleted: boolean): void {
    this.endSession('unpublished');
    if (deleted) {
      this.phase = 'closing';
      this.closeSoon();
    }
  }

  /** Ends our side; the peer has a moment to read what was sent and close its own. */
  private closeSoon(): void {
    this.socket.end();
    setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS).unref();
  }

  private status(level: string, code: string, description: string): void {
    const payload = encodeAmf0('onStatus', 0, null, { level, code, description });
    this.send(STATUS_CHUNK_STREAM, MessageType.commandAmf0, payload, PUBLISH_STREAM);
  }

  private call(name: string, id: number, ...values: Amf0Value[]): void {
    this.send(COMMAND_CHUNK_STREAM, MessageType.commandAmf0, encodeAmf0(name, id, ...values), 0);
  }

  private control(type: number, payload: Buffer): void {
    this.send(CONTROL_CHUNK_STREAM, type, payload, 0);
  }

  private send(chunkStream: number, type: number, payload: Buffer, streamId: number): void {
    if (!this.socket.writable) return;
    this.socket.write(
      encodeChunks(chunkStream, { type, streamId, timestamp: 0, payload }, this.outChunkSize),
    );
  }
}

function uint32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
}
