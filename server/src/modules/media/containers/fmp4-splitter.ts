import type { RelayEvent } from '../relay-events.ts';
import { type Fmp4Event, Fmp4Reader } from './fmp4.ts';

/** The MediaSource type of fMP4 with these codecs. */
export const fmp4MimeType = (codecs: string[]) => `video/mp4; codecs="${codecs.join(',')}"`;

/** What the relay does with a fragmented MP4 event: a keyframe starts a group, the rest append. */
export function relayEventOf(event: Fmp4Event): RelayEvent {
  if (event.kind === 'init') return { kind: 'init', bytes: event.bytes };
  return event.keyframe
    ? { kind: 'group', start: [], keyframe: event.bytes }
    : { kind: 'append', bytes: event.bytes };
}

/**
 * Fragmented MP4 (the pipeline's output, or Safari's MediaRecorder) as relay events: the init
 * segment, then a group at every fragment that starts with a video keyframe, appends between.
 */
export class Fmp4Splitter {
  private readonly reader = new Fmp4Reader();
  /** The MediaSource type of the stream, once its init segment has been read. */
  mimeType: string | undefined;

  /** Throws Fmp4Error when the bytes are not fragmented MP4. */
  push(chunk: Buffer): RelayEvent[] {
    return this.reader.push(chunk).map((event) => {
      if (event.kind === 'init') this.mimeType = fmp4MimeType(event.codecs);
      return relayEventOf(event);
    });
  }
}
