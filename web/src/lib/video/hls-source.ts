import { LIVE_EDGE_CATCH_UP_RATE } from '@streamshop/contract/live.ts';

/** How an HLS playlist is played: the browser's own player, or hls.js over MediaSource. */
export type HlsEngine = 'native' | 'hls.js';

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** The browser plays HLS itself (Safari, iOS, recent Chromium). */
export function playsHlsNatively(video: HTMLVideoElement): boolean {
  return video.canPlayType(HLS_TYPE) !== '';
}

export interface HlsSourceOptions {
  /** A live playlist: stay close to its end. */
  live: boolean;
  /** Force an engine (tests and benchmarks); otherwise native when the browser has it. */
  engine?: HlsEngine;
  /** A fatal error the engine cannot recover from (hls.js), or the media element's error. */
  onFatal?: (reason: string) => void;
}

export interface HlsSource {
  engine: HlsEngine;
  destroy(): void;
}

/**
 * Plays an HLS playlist in `video`: natively where the browser can, else with hls.js (loaded
 * on demand: it is not in the main bundle). Undefined when neither is possible.
 */
export async function attachHls(
  video: HTMLVideoElement,
  url: string,
  options: HlsSourceOptions,
): Promise<HlsSource | undefined> {
  const engine = options.engine ?? (playsHlsNatively(video) ? 'native' : 'hls.js');
  if (engine === 'native') {
    if (!playsHlsNatively(video)) return undefined;
    const onError = () => options.onFatal?.('The video could not be played.');
    video.addEventListener('error', onError);
    video.src = url;
    return {
      engine,
      destroy() {
        video.removeEventListener('error', onError);
        video.removeAttribute('src');
        video.load();
      },
    };
  }
  const { default: Hls } = await import('hls.js');
  if (!Hls.isSupported()) return undefined;
  const hls = new Hls(
    options.live
      ? {
          // The live playlist has parts (ADR 0024): hls.js keeps to its PART-HOLD-BACK (three parts,
          // under a second) and reloads it blocking. Without parts (another instance lost the
          // publisher's edge) it falls back to three target durations.
          // (Setting a sync or maximum latency of our own would override that hold-back.)
          lowLatencyMode: true,
          maxLiveSyncPlaybackRate: LIVE_EDGE_CATCH_UP_RATE,
          backBufferLength: 30,
        }
      : { backBufferLength: 90 },
  );
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (!data.fatal) return;
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR) {
      hls.recoverMediaError();
      return;
    }
    if (data.type === Hls.ErrorTypes.NETWORK_ERROR && options.live) {
      // A live playlist that is not there yet (the first segment is a second away): try again.
      setTimeout(() => hls.loadSource(url), 1000);
      return;
    }
    options.onFatal?.(data.details);
  });
  hls.loadSource(url);
  hls.attachMedia(video);
  return { engine, destroy: () => hls.destroy() };
}
