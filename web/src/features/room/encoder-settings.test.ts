import { describe, expect, it } from 'vitest';
import {
  encoderSettingRows,
  formatBitrate,
  formatKeyframeInterval,
  formatResolution,
  formatVertical,
  planEncoderSettings,
} from './encoder-settings.ts';

describe('encoder settings', () => {
  it('formats bitrates in Mbit/s with at most one decimal', () => {
    expect(formatBitrate(1500)).toBe('1.5 Mbit/s');
    expect(formatBitrate(6000)).toBe('6 Mbit/s');
    expect(formatBitrate(2500)).toBe('2.5 Mbit/s');
    expect(formatBitrate(12_000)).toBe('12 Mbit/s');
  });

  it('formats the resolution with its largest picture', () => {
    expect(formatResolution(planEncoderSettings('free'))).toBe('up to 480p (854×480)');
    expect(formatResolution(planEncoderSettings('pro'))).toBe('up to 1080p (1920×1080)');
  });

  it('suggests 720×1280 for a vertical show where the plan allows it, else its picture upright', () => {
    expect(formatVertical(planEncoderSettings('pro'))).toBe('720×1280 (portrait)');
    expect(formatVertical(planEncoderSettings('free'))).toBe('480×854 (portrait)');
  });

  it('formats the keyframe interval in seconds', () => {
    expect(formatKeyframeInterval(1)).toBe('1 s');
    expect(formatKeyframeInterval(2)).toBe('2 s');
  });

  it('takes each plan’s picture and bitrate, and H.264/AAC with 1 s keyframes', () => {
    expect(planEncoderSettings('free')).toEqual({
      videoCodec: 'H.264',
      audioCodec: 'AAC',
      keyframeIntervalSec: 1,
      maxWidth: 854,
      maxHeight: 480,
      resolution: '480p',
      bitrateKbps: 1500,
    });
    expect(planEncoderSettings('pro')).toMatchObject({ maxWidth: 1920, maxHeight: 1080, bitrateKbps: 6000 });
  });

  it('lists the settings as OBS asks for them', () => {
    expect(encoderSettingRows(planEncoderSettings('free'))).toEqual([
      { label: 'Video', value: 'H.264' },
      { label: 'Audio', value: 'AAC' },
      { label: 'Keyframe interval', value: '1 s' },
      { label: 'Resolution', value: 'up to 480p (854×480)' },
      { label: 'Vertical shows', value: '480×854 (portrait)' },
      { label: 'Bitrate', value: 'about 1.5 Mbit/s' },
    ]);
    expect(encoderSettingRows(planEncoderSettings('pro')).at(-1)).toEqual({
      label: 'Bitrate',
      value: 'about 6 Mbit/s',
    });
  });
});
