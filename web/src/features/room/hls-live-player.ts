import {
  HLS_LIVE_EDGE_MAX_LAG_SEC,
  HLS_LIVE_EDGE_TARGET_SEC,
  hlsPath,
  LIVE_PLAYLIST,
} from '@streamshop/contract/live.ts';
import { attachHls, type HlsEngine, type HlsSource } from '../../lib/video/hls-source.ts';
import { liveEdgeSeekTarget } from './live-edge.ts';
import type { PlayerStatus } from './media-player.ts';

/** A live playlist that is not there yet (the first segment is on its way) is asked for again. */
const RETRY_MS = 1500;
/** How often the browser's own player is checked against the live edge. */
const LIVE_EDGE_CHECK_MS = 500;

/**
 * The HLS path: the room's live playlist in a <video>, natively or with hls.js. Status follows
 * the video element: playing once frames come, ended at the playlist's end, unsupported when the
 * browser can play HLS neither way.
 */
export class HlsLivePlayer {
  private source: HlsSource | undefined;
  private destroyed = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private edgeTimer: ReturnType<typeof setInterval> | undefined;
  private readonly listeners: Array<[string, () => void]>;

  constructor(
    private readonly roomName: string,
    private readonly video: HTMLVideoElement,
    private readonly onStatus: (status: PlayerStatus) => void,
    private readonly engine?: HlsEngine,
    /** Which engine plays it, once known. */
    private readonly onEngine?: (engine: HlsEngine) => void,
  ) {
    this.listeners = [
      ['playing', () => this.onStatus('playing')],
      ['waiting', () => this.onStatus('waiting')],
      ['ended', () => this.onStatus('ended')],
    ];
  }

  start(): void {
    this.video.muted = true;
    for (const [event, listener] of this.listeners) this.video.addEventListener(event, listener);
    void this.attach();
  }

  private async attach(): Promise<void> {
    const source = await attachHls(this.video, hlsPath(this.roomName, LIVE_PLAYLIST), {
      live: true,
      engine: this.engine,
      onFatal: () => this.retry(),
    });
    if (this.destroyed) {
      source?.destroy();
      return;
    }
    if (!source) {
      this.onStatus('unsupported');
      return;
    }
    this.source = source;
    this.onEngine?.(source.engine);
    // hls.js keeps its own live edge; the browser's player is kept at the same one from here.
    if (source.engine === 'native') {
      clearInterval(this.edgeTimer);
      this.edgeTimer = setInterval(() => this.keepNearLiveEdge(), LIVE_EDGE_CHECK_MS);
    }
    this.video.play().catch(() => {
      // Autoplay can still be refused; the page shows the video with its controls.
    });
  }

  private retry(): void {
    if (this.destroyed || this.retryTimer) return;
    this.source?.destroy();
    this.source = undefined;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.destroyed) void this.attach();
    }, RETRY_MS);
  }

  /**
   * The live playlist's end is the end of what the video can seek to (Safari). A jump, not a faster
   * rate: Chromium's own HLS player stalls when its rate changes, and it reports nothing seekable
   * on a live playlist, so there it stays where it started (three segments behind).
   */
  private keepNearLiveEdge(): void {
    const { seekable } = this.video;
    if (seekable.length === 0 || this.video.paused) return;
    const end = seekable.end(seekable.length - 1);
    const target = liveEdgeSeekTarget(
      end,
      this.video.currentTime,
      HLS_LIVE_EDGE_MAX_LAG_SEC,
      HLS_LIVE_EDGE_TARGET_SEC,
    );
    if (target !== null) this.video.currentTime = target;
  }

  destroy(): void {
    this.destroyed = true;
    clearInterval(this.edgeTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const [event, listener] of this.listeners) this.video.removeEventListener(event, listener);
    this.source?.destroy();
    this.source = undefined;
  }
}
