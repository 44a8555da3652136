import {
  CloseCode,
  MEDIA_KEYFRAME_INTERVAL_MS,
  MEDIA_MIME_TYPES,
  MEDIA_TIMESLICE_MS,
  type MediaControl,
} from '@streamshop/contract/live-media.ts';
import { RealtimeSocket } from '../../lib/realtime.ts';

/** The first type (MEDIA_MIME_TYPES, best first) this browser can record, or null. */
export function pickRecordingMimeType(
  isTypeSupported: (type: string) => boolean = (type) =>
    typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(type),
): string | null {
  return MEDIA_MIME_TYPES.find((type) => isTypeSupported(type)) ?? null;
}

export function parseMediaControl(raw: string): MediaControl | null {
  const data: unknown = JSON.parse(raw);
  if (typeof data !== 'object' || data === null || !('type' in data)) return null;
  return typeof data.type === 'string' ? (data as MediaControl) : null;
}

export interface BroadcasterEvents {
  /** The server accepted the publisher and the recorder runs. */
  onLive?: () => void;
  onError?: (message: string) => void;
}

/**
 * Sends the camera to the server: WebSocket /ws/publish?room={name}, MediaRecorder WebM chunks
 * as binary frames. Each (re)connection starts a fresh recorder, so the server always receives
 * an init segment first and viewers can continue after a publisher reconnect.
 */
export class Broadcaster {
  private readonly socket: RealtimeSocket<MediaControl>;
  private recorder: MediaRecorder | null = null;
  private stopped = false;
  private readonly mimeType = pickRecordingMimeType();

  constructor(
    roomName: string,
    private readonly stream: MediaStream,
    private readonly events: BroadcasterEvents = {},
  ) {
    this.socket = new RealtimeSocket<MediaControl>({
      // The server relays the type we record to viewers (their SourceBuffer's type).
      path: `/ws/publish?room=${encodeURIComponent(roomName)}&mimeType=${encodeURIComponent(this.mimeType ?? '')}`,
      parse: parseMediaControl,
      onMessage: (message) => this.onControl(message),
      onStatus: (status, code) => {
        // A dropped connection: the next publish_ready starts a new recorder.
        if (status !== 'open') this.stopRecorder();
        if (status === 'closed' && !this.stopped) {
          this.events.onError?.(
            code === CloseCode.replaced
              ? 'Your stream continues in another tab.'
              : 'The video connection was refused.',
          );
        }
      },
      backoff: { baseMs: 250, maxMs: 4000 },
    });
  }

  start(): void {
    if (!this.mimeType) {
      this.events.onError?.('This browser cannot record video.');
      return;
    }
    this.stopped = false;
    this.socket.connect();
  }

  /** Stops recording and closes the connection for good. */
  stop(): void {
    this.stopped = true;
    this.stopRecorder();
    this.socket.close();
  }

  private onControl(message: MediaControl): void {
    if (message.type === 'publish_ready') {
      this.startRecorder();
    } else if (message.type === 'error') {
      this.events.onError?.(message.message);
    }
  }

  private startRecorder(): void {
    if (this.stopped) return;
    this.stopRecorder();
    const mimeType = this.mimeType;
    if (!mimeType) return;
    // videoKeyFrameIntervalDuration is Chromium's; not yet in TypeScript's DOM types.
    const options = {
      mimeType,
      videoKeyFrameIntervalDuration: MEDIA_KEYFRAME_INTERVAL_MS,
    } as MediaRecorderOptions;
    const recorder = new MediaRecorder(this.stream, options);
    recorder.ondataavailable = (event) => {
      // Blobs are sent in order by the socket itself; no async read that could reorder them.
      if (event.data.size > 0 && this.recorder === recorder) this.socket.sendBinary(event.data);
    };
    recorder.onerror = () => this.events.onError?.('Recording stopped unexpectedly.');
    recorder.start(MEDIA_TIMESLICE_MS);
    this.recorder = recorder;
    this.events.onLive?.();
  }

  private stopRecorder(): void {
    const recorder = this.recorder;
    this.recorder = null;
    if (recorder && recorder.state !== 'inactive') recorder.stop();
  }
}
