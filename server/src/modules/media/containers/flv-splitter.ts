import type { RelayEvent } from '../relay-events.ts';
import { FLV_HAS_VIDEO, FlvError, FlvReader, FlvTagType, isAacSequenceHeader, videoTagInfo } from './flv.ts';

/** Encoders send a few hundred bytes before their first frame; this much is not an FLV start. */
const MAX_INIT_BYTES = 1024 * 1024;

/**
 * FLV (what an RTMP publisher such as OBS sends, as the RTMP server writes it) as relay events:
 * the init is the FLV header with every tag before the first audio or video frame (the
 * onMetaData script data and the AVC and AAC sequence headers); then a group at every video
 * keyframe, appends between. Every event's bytes are whole tags with their previous tag sizes,
 * so the init followed by any group and what comes after it is a valid FLV stream.
 *
 * A stream without video (the header says so) starts a group at every audio frame.
 */
export class FlvSplitter {
  private readonly reader = new FlvReader();
  private init: Buffer[] | undefined = [];
  private initBytes = 0;
  private hasVideo = true;

  /** Throws FlvError when the bytes are not FLV, or are FLV of enhanced RTMP (HEVC, AV1…). */
  push(chunk: Buffer): RelayEvent[] {
    const out: RelayEvent[] = [];
    for (const item of this.reader.push(chunk)) {
      if (item.kind === 'header') {
        this.hasVideo = (item.flags & FLV_HAS_VIDEO) !== 0;
        this.init?.push(item.bytes);
        continue;
      }
      if (item.type === FlvTagType.video && videoTagInfo(item.data).enhanced)
        throw new FlvError('enhanced RTMP video (HEVC, AV1, VP9) is not supported: send H.264');
      if (this.init) {
        if (!isFrame(item.type, item.data)) {
          this.init.push(item.bytes);
          this.initBytes += item.bytes.length;
          if (this.initBytes > MAX_INIT_BYTES)
            throw new FlvError('no audio or video frame in the first 1 MB');
          continue;
        }
        out.push({ kind: 'init', bytes: Buffer.concat(this.init) });
        this.init = undefined;
      }
      const startsGroup =
        item.type === FlvTagType.video
          ? isKeyframe(item.data)
          : !this.hasVideo && item.type === FlvTagType.audio && isFrame(item.type, item.data);
      out.push(
        startsGroup
          ? { kind: 'group', start: [], keyframe: item.bytes }
          : { kind: 'append', bytes: item.bytes },
      );
    }
    return out;
  }
}

/** An audio or video frame, as opposed to script data or a codec's sequence header. */
function isFrame(type: number, data: Buffer): boolean {
  if (type === FlvTagType.audio) return !isAacSequenceHeader(data);
  if (type !== FlvTagType.video) return false;
  const info = videoTagInfo(data);
  if (info.frameType === 5) return false; // video info / command frame: no picture
  return info.codecId !== 7 || info.avcPacketType === 1;
}

function isKeyframe(data: Buffer): boolean {
  const info = videoTagInfo(data);
  return info.frameType === 1 && (info.codecId !== 7 || info.avcPacketType === 1);
}
