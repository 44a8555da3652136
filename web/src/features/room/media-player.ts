import type { MediaControl } from '@streamshop/contract/live-media.ts';
import { mediaSocketPath } from '@streamshop/contract/room-urls.ts';
import { RealtimeSocket } from '../../lib/realtime.ts';
import { mediaSourceConstructor } from '../../lib/video/delivery-path.ts';
import { parseMediaControl } from './broadcaster.ts';
import {
  joinBuffers,
  liveEdgeRate,
  liveEdgeSeekTarget,
  staleBufferRange,
  startPosition,
} from './live-edge.ts';

export type PlayerStatus =
  /** Connecting, or waiting for the broadcaster (media_idle). */
  'waiting' | 'playing' | 'ended' | 'unsupported';

const LIVE_EDGE_CHECK_MS = 250;

/**
 * A User Timing mark `live-video:<step>` (the latency bench reads them to time a late join's
 * steps: docs/benchmarks.md).
 */
export function mark(step: string): void {
  performance.mark(`live-video:${step}`);
}

/** After this many failed connections in a row the WebSocket path counts as unavailable. */
const MAX_CONNECT_FAILURES = 3;

/**
 * The WebSocket path: plays /ws/media?room={name} (fragmented MP4, a fragment per frame) through
 * Media Source Extensions, or ManagedMediaSource, into a <video>. media_reset
 * creates a fresh MediaSource and SourceBuffer; binary frames are appended in order (queued while
 * the buffer is updating); the playhead is kept near the live edge.
 */
export class LivePlayer {
  private readonly socket: RealtimeSocket<MediaControl>;
  private mediaSource: MediaSource | null = null;
  private objectUrl: string | null = null;
  private sourceBuffer: SourceBuffer | null = null;
  private queue: ArrayBuffer[] = [];
  private seekedToStart = false;
  private edgeTimer: ReturnType<typeof setInterval> | null = null;
  private status: PlayerStatus = 'waiting';
  private connectFailures = 0;
  private everOpened = false;
  /** The publisher has gone (media_idle) and no new init segment has come yet. */
  private idle = false;

  constructor(
    roomName: string,
    private readonly video: HTMLVideoElement,
    private readonly onStatus: (status: PlayerStatus) => void,
    /** The room has no video now (nothing published yet, or the publisher left). */
    private readonly onIdle?: () => void,
  ) {
    this.socket = new RealtimeSocket<MediaControl>({
      path: mediaSocketPath(roomName),
      parse: parseMediaControl,
      onMessage: (message) => this.onControl(message),
      onBinary: (data) => this.onMedia(data),
      onStatus: (status) => {
        if (status === 'open') {
          this.everOpened = true;
          this.connectFailures = 0;
        } else if (status === 'reconnecting' && !this.everOpened) {
          // Never got through (a proxy without WebSockets): let the page try HLS.
          this.connectFailures += 1;
          if (this.connectFailures >= MAX_CONNECT_FAILURES) this.setStatus('unsupported');
        }
      },
    });
  }

  start(): void {
    this.video.muted = true;
    this.socket.connect();
    this.edgeTimer = setInterval(() => this.keepNearLiveEdge(), LIVE_EDGE_CHECK_MS);
  }

  destroy(): void {
    this.socket.close();
    if (this.edgeTimer !== null) clearInterval(this.edgeTimer);
    this.edgeTimer = null;
    this.detach();
  }

  private setStatus(status: PlayerStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.onStatus(status);
  }

  private onControl(message: MediaControl): void {
    switch (message.type) {
      case 'media_reset':
        this.reset(message.mimeType);
        break;
      case 'media_idle':
        // Fragments still queued must not flip the status back: playing again after media_reset.
        this.idle = true;
        this.queue = [];
        this.setStatus('waiting');
        this.onIdle?.();
        break;
      case 'stream_ended':
        this.setStatus('ended');
        this.socket.close();
        break;
      default:
        break;
    }
  }

  private reset(mimeType: string): void {
    mark('reset');
    this.detach();
    this.idle = false;
    const Source = mediaSourceConstructor();
    if (!Source?.isTypeSupported(mimeType)) {
      this.setStatus('unsupported');
      return;
    }
    // ManagedMediaSource plays only with remote playback (AirPlay) off.
    if (Source !== globalThis.MediaSource) this.video.disableRemotePlayback = true;
    const mediaSource = new Source();
    this.mediaSource = mediaSource;
    this.objectUrl = URL.createObjectURL(mediaSource);
    mediaSource.addEventListener(
      'sourceopen',
      () => {
        if (this.mediaSource !== mediaSource) return;
        mark('source-open');
        const sourceBuffer = mediaSource.addSourceBuffer(mimeType);
        sourceBuffer.addEventListener('updateend', () => this.onAppended(sourceBuffer));
        sourceBuffer.addEventListener('error', () => this.dropBuffered());
        this.sourceBuffer = sourceBuffer;
        this.pump();
      },
      { once: true },
    );
    this.video.src = this.objectUrl;
  }

  private onMedia(data: ArrayBuffer): void {
    // Bytes before any media_reset belong to no SourceBuffer.
    if (!this.mediaSource) return;
    this.queue.push(data);
    this.pump();
  }

  private pump(): void {
    const sourceBuffer = this.sourceBuffer;
    if (!sourceBuffer || sourceBuffer.updating || this.mediaSource?.readyState !== 'open') return;
    // Bound memory: drop media well behind the playhead before appending more.
    if (sourceBuffer.buffered.length > 0) {
      const stale = staleBufferRange(sourceBuffer.buffered.start(0), this.video.currentTime);
      if (stale) {
        sourceBuffer.remove(stale[0], stale[1]);
        return;
      }
    }
    if (this.queue.length === 0) return;
    // Everything that arrived while the buffer was busy goes in one append (a late joiner gets the
    // whole group since the keyframe at once: one append instead of one per fragment).
    const next = joinBuffers(this.queue);
    this.queue = [];
    try {
      sourceBuffer.appendBuffer(next);
    } catch {
      // QuotaExceeded or a closed source: start over from the next keyframe group.
      this.dropBuffered();
    }
  }

  private onAppended(sourceBuffer: SourceBuffer): void {
    if (sourceBuffer !== this.sourceBuffer) return;
    const { buffered } = sourceBuffer;
    if (!this.seekedToStart && buffered.length > 0) {
      // A late joiner's timestamps do not start at 0: begin near the live edge of what came.
      mark('first-append');
      this.seekedToStart = true;
      this.video.currentTime = startPosition(buffered.start(0), buffered.end(buffered.length - 1));
      this.video.play().catch(() => {
        // Autoplay can still be refused; the page shows the video with its controls.
      });
    }
    if (buffered.length > 0 && !this.idle) this.setStatus('playing');
    this.keepNearLiveEdge();
    this.pump();
  }

  private keepNearLiveEdge(): void {
    const sourceBuffer = this.sourceBuffer;
    if (!sourceBuffer || sourceBuffer.buffered.length === 0) return;
    const end = sourceBuffer.buffered.end(sourceBuffer.buffered.length - 1);
    const target = liveEdgeSeekTarget(end, this.video.currentTime);
    if (target !== null) this.video.currentTime = target;
    const rate = liveEdgeRate(end, this.video.currentTime, this.video.playbackRate);
    if (rate !== this.video.playbackRate) this.video.playbackRate = rate;
  }

  private dropBuffered(): void {
    this.queue = [];
  }

  private detach(): void {
    this.queue = [];
    this.sourceBuffer = null;
    this.seekedToStart = false;
    this.mediaSource = null;
    if (this.objectUrl) {
      URL.revokeObjectURL(this.objectUrl);
      this.objectUrl = null;
      this.video.removeAttribute('src');
      this.video.load();
    }
  }
}
