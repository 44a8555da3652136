import { EventEmitter } from 'node:events';
import {
  encodeFlvHeader,
  encodeFlvTag,
  FLV_HAS_AUDIO,
  FLV_HAS_VIDEO,
  FlvTagType,
} from '../../containers/flv.ts';
import { type Amf0Value, decodeAmf0, encodeAmf0 } from '../../rtmp-protocol/amf0.ts';
import { MessageType, type RtmpMessage } from '../../rtmp-protocol/chunks.ts';

/**
 * One accepted publish on the RTMP ingest server, as its consumer sees it: the stream as FLV
 * bytes (the file header, then a tag per audio, video and data message, onMetaData included),
 * and its end. The consumer feeds the bytes to FlvSplitter and on to the live pipeline.
 */

export type PublishEndReason =
  /** The encoder stopped: FCUnpublish or deleteStream. */
  | 'unpublished'
  /** The connection closed or failed without an unpublish. */
  | 'disconnected'
  /** kick() was called. */
  | 'kicked'
  /** Nothing arrived for the idle timeout. */
  | 'timeout'
  /** The publisher broke the protocol or a limit, or a 'data' listener threw. */
  | 'error'
  /** The server was closed. */
  | 'server-closed';

export interface PublishEnd {
  reason: PublishEndReason;
  /** For 'kicked', the reason given to kick(); for 'error', what went wrong (never the key). */
  detail?: string;
}

export interface RtmpPublishSessionEvents {
  /** FLV bytes: the header with the first tag, then whole tags with their previous tag sizes. */
  data: [bytes: Buffer];
  /** Once; no 'data' after it. */
  end: [end: PublishEnd];
}

export interface RtmpPublishSession extends EventEmitter<RtmpPublishSessionEvents> {
  /** What authorize() answered for this stream (a stream or room id, not the key). */
  readonly id: string;
  /** The connect command's app. */
  readonly app: string;
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** The encoder's flashVer (e.g. "FMLE/3.0 (compatible; FMSc/1.0)" for OBS). */
  readonly flashVer: string | undefined;
  readonly ended: boolean;
  /** Drops the publisher (the key was rotated, the stream ended): 'end' with reason 'kicked'. */
  kick(reason: string): void;
}

export interface SessionInfo {
  id: string;
  app: string;
  remoteAddress: string;
  remotePort: number;
  flashVer: string | undefined;
}

const SET_DATA_FRAME = encodeAmf0('@setDataFrame');
const CLEAR_DATA_FRAME = encodeAmf0('@clearDataFrame');
const AGGREGATE = 22;
const FLV_TAG_HEADER = 11;

/** The session as the connection drives it: write() each media message, finish() at the end. */
export class PublishSession extends EventEmitter<RtmpPublishSessionEvents> implements RtmpPublishSession {
  readonly id: string;
  readonly app: string;
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly flashVer: string | undefined;
  private headerSent = false;
  private endedWith: PublishEnd | undefined;

  constructor(
    info: SessionInfo,
    private readonly drop: (reason: string) => void,
  ) {
    super();
    this.id = info.id;
    this.app = info.app;
    this.remoteAddress = info.remoteAddress;
    this.remotePort = info.remotePort;
    this.flashVer = info.flashVer;
  }

  get ended(): boolean {
    return this.endedWith !== undefined;
  }

  kick(reason: string): void {
    if (this.endedWith) return;
    this.finish({ reason: 'kicked', detail: reason });
    this.drop(reason);
  }

  /** Ends the session once; later calls do nothing. */
  finish(end: PublishEnd): void {
    if (this.endedWith) return;
    this.endedWith = end;
    this.emit('end', end);
  }

  /** An audio, video, data or aggregate message from the publisher, as FLV. */
  write(message: RtmpMessage): void {
    if (this.endedWith) return;
    switch (message.type) {
      case MessageType.audio:
      case MessageType.video:
        if (message.payload.length) this.tag(message.type, message.timestamp, message.payload);
        return;
      case MessageType.dataAmf0:
        this.script(message.timestamp, message.payload);
        return;
      case MessageType.dataAmf3:
        // AMF3 data messages start with a format byte, then AMF0.
        if (message.payload[0] === 0) this.script(message.timestamp, message.payload.subarray(1));
        return;
      case AGGREGATE:
        this.aggregate(message);
        return;
      default:
        return;
    }
  }

  /** Script data: "@setDataFrame" is RTMP's wrapper around what FLV stores (onMetaData…). */
  private script(timestamp: number, payload: Buffer): void {
    if (startsWith(payload, CLEAR_DATA_FRAME)) return;
    const data = startsWith(payload, SET_DATA_FRAME) ? payload.subarray(SET_DATA_FRAME.length) : payload;
    if (data.length) this.tag(FlvTagType.scriptData, timestamp, data);
  }

  /** An aggregate message is FLV tags back to back, timed relative to the message. */
  private aggregate(message: RtmpMessage): void {
    const { payload } = message;
    let first: number | undefined;
    for (let offset = 0; offset + FLV_TAG_HEADER <= payload.length; ) {
      const size = payload.readUIntBE(offset + 1, 3);
      const end = offset + FLV_TAG_HEADER + size;
      if (end > payload.length) return;
      const stamp = (payload.readUIntBE(offset + 4, 3) | ((payload[offset + 7] as number) << 24)) >>> 0;
      first ??= stamp;
      this.write({
        type: (payload[offset] as number) & 0x1f,
        streamId: message.streamId,
        timestamp: (message.timestamp + stamp - first) >>> 0,
        payload: payload.subarray(offset + FLV_TAG_HEADER, end),
      });
      offset = end + 4; // the back pointer
    }
  }

  private tag(type: number, timestamp: number, data: Buffer): void {
    if (!this.headerSent) {
      this.headerSent = true;
      const flags = type === FlvTagType.scriptData ? flagsFromMetadata(data) : FLV_HAS_AUDIO | FLV_HAS_VIDEO;
      this.emit('data', Buffer.concat([encodeFlvHeader(flags), encodeFlvTag(type, timestamp, data)]));
      return;
    }
    this.emit('data', encodeFlvTag(type, timestamp, data));
  }
}

function startsWith(payload: Buffer, prefix: Buffer): boolean {
  return payload.length >= prefix.length && payload.subarray(0, prefix.length).equals(prefix);
}

/** The header's audio and video flags from onMetaData's codec ids; both when it does not say. */
function flagsFromMetadata(data: Buffer): number {
  let values: Amf0Value[];
  try {
    values = decodeAmf0(data);
  } catch {
    return FLV_HAS_AUDIO | FLV_HAS_VIDEO;
  }
  const [name, metadata] = values;
  if (name !== 'onMetaData' || !metadata || typeof metadata !== 'object' || Array.isArray(metadata))
    return FLV_HAS_AUDIO | FLV_HAS_VIDEO;
  const has = (key: string) => metadata[key] !== undefined && metadata[key] !== null;
  const flags = (has('audiocodecid') ? FLV_HAS_AUDIO : 0) | (has('videocodecid') ? FLV_HAS_VIDEO : 0);
  return flags || FLV_HAS_AUDIO | FLV_HAS_VIDEO;
}
