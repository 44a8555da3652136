import type { Plan } from '@streamshop/contract/constants.ts';
import { ENCODER_SETTINGS, type Ingest, PLAN_VIDEO } from '@streamshop/contract/ingest.ts';

export type EncoderSettings = Ingest['settings'];

/** One line of the settings list: what to set in the encoder, and to what. */
export interface EncoderSettingRow {
  label: string;
  value: string;
}

/** The one-line how-to under the settings. */
export const OBS_HOW_TO =
  'In OBS: Settings → Stream → Service: Custom…, paste the server and the key, then Start Streaming.';

/** The settings a plan allows, as the ingest answer gives them (for pages without one). */
export function planEncoderSettings(plan: Plan): EncoderSettings {
  const video = PLAN_VIDEO[plan];
  return {
    ...ENCODER_SETTINGS,
    maxWidth: video.width,
    maxHeight: video.height,
    resolution: video.label,
    bitrateKbps: video.bitrateKbps,
  };
}

const megabits = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** 1500 → "1.5 Mbit/s", 6000 → "6 Mbit/s". */
export function formatBitrate(kbps: number): string {
  return `${megabits.format(kbps / 1000)} Mbit/s`;
}

/** "up to 480p (854×480)". */
export function formatResolution(settings: EncoderSettings): string {
  return `up to ${settings.resolution} (${settings.maxWidth}×${settings.maxHeight})`;
}

/** 1 → "1 s", 2 → "2 s". */
export function formatKeyframeInterval(seconds: number): string {
  return `${megabits.format(seconds)} s`;
}

/**
 * The canvas for a vertical show (phones watch it full-screen): 720×1280 where the plan allows it,
 * else the plan's picture turned upright ("480×854").
 */
export function formatVertical(settings: EncoderSettings): string {
  const [width, height] =
    settings.maxWidth >= 1280 && settings.maxHeight >= 720
      ? [720, 1280]
      : [settings.maxHeight, settings.maxWidth];
  return `${width}×${height} (portrait)`;
}

/** The encoder settings to use, in the order OBS asks for them. */
export function encoderSettingRows(settings: EncoderSettings): EncoderSettingRow[] {
  return [
    { label: 'Video', value: settings.videoCodec },
    { label: 'Audio', value: settings.audioCodec },
    { label: 'Keyframe interval', value: formatKeyframeInterval(settings.keyframeIntervalSec) },
    { label: 'Resolution', value: formatResolution(settings) },
    { label: 'Vertical shows', value: formatVertical(settings) },
    { label: 'Bitrate', value: `about ${formatBitrate(settings.bitrateKbps)}` },
  ];
}

/** The text of a stream key that is not revealed: as many dots whatever the key. */
export const HIDDEN_KEY = '•'.repeat(20);
