import { describe, expect, it } from 'vitest';
import { toggledFit, videoFit } from './immersive.ts';

const PHONE_UPRIGHT = true;
const PHONE_SIDEWAYS = false;
const PORTRAIT = { width: 720, height: 1280 };
const LANDSCAPE = { width: 1280, height: 720 };

describe('videoFit', () => {
  it('fills a screen of the video’s own orientation', () => {
    expect(videoFit(PORTRAIT, PHONE_UPRIGHT, 'auto')).toBe('cover');
    expect(videoFit(LANDSCAPE, PHONE_SIDEWAYS, 'auto')).toBe('cover');
  });

  it('letterboxes a video on a screen held the other way, so nothing is cropped away', () => {
    expect(videoFit(LANDSCAPE, PHONE_UPRIGHT, 'auto')).toBe('contain');
    expect(videoFit(PORTRAIT, PHONE_SIDEWAYS, 'auto')).toBe('contain');
  });

  it('letterboxes until the video’s size is known', () => {
    expect(videoFit(null, PHONE_UPRIGHT, 'auto')).toBe('contain');
    expect(videoFit({ width: 0, height: 0 }, PHONE_UPRIGHT, 'auto')).toBe('contain');
  });

  it('follows the viewer’s choice either way', () => {
    expect(videoFit(LANDSCAPE, PHONE_UPRIGHT, 'fill')).toBe('cover');
    expect(videoFit(PORTRAIT, PHONE_UPRIGHT, 'fit')).toBe('contain');
  });
});

describe('toggledFit', () => {
  it('chooses the other fit, or automatic when that is the orientation’s own', () => {
    expect(toggledFit('contain', 'contain')).toBe('fill');
    expect(toggledFit('cover', 'contain')).toBe('auto');
    expect(toggledFit('cover', 'cover')).toBe('fit');
    expect(toggledFit('contain', 'cover')).toBe('auto');
  });
});
