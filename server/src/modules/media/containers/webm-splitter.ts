import type { RelayEvent } from '../relay-events.ts';
import { WebmReader } from './webm.ts';

/** A Cluster header of unknown size, to start a viewer at a keyframe in the middle of a Cluster. */
const CLUSTER_OF_UNKNOWN_SIZE = Buffer.from([
  0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
]);
const TIMECODE_ID = 0xe7;

/**
 * MediaRecorder's WebM as relay events: parses the bytes just enough to say where the init
 * segment ends and where each video keyframe starts.
 */
export class WebmSplitter {
  private readonly reader = new WebmReader();
  private videoTrack: number | undefined;
  private timecode: Buffer | undefined;

  /** Throws WebmError when the bytes are not a WebM stream. */
  push(chunk: Buffer): RelayEvent[] {
    const out: RelayEvent[] = [];
    for (const event of this.reader.push(chunk)) {
      switch (event.kind) {
        case 'init':
          this.videoTrack = event.videoTrack;
          out.push({ kind: 'init', bytes: event.bytes });
          break;
        case 'cluster':
          this.timecode = undefined;
          out.push({ kind: 'append', bytes: event.bytes });
          break;
        case 'other':
          if (event.bytes[0] === TIMECODE_ID) this.timecode = event.bytes;
          out.push({ kind: 'append', bytes: event.bytes });
          break;
        case 'block': {
          const videoKeyframe =
            event.keyframe && (event.track === this.videoTrack || this.videoTrack === undefined);
          if (videoKeyframe && this.timecode) {
            out.push({
              kind: 'group',
              start: [CLUSTER_OF_UNKNOWN_SIZE, this.timecode],
              keyframe: event.bytes,
            });
          } else {
            out.push({ kind: 'append', bytes: event.bytes });
          }
        }
      }
    }
    return out;
  }
}
