import { describe, expect, it } from 'vitest';
import {
  blockedWordsError,
  formatBlockedWords,
  parseBlockedWords,
  slowModeLabel,
  slowModeOptions,
} from './chat-settings-form.ts';

describe('parseBlockedWords', () => {
  it('splits on lines and commas, trims, lower-cases and drops blanks and repeats', () => {
    expect(parseBlockedWords('Scam, spam\n\n  DM   me  \nscam,,')).toEqual(['scam', 'spam', 'dm me']);
  });

  it('gives an empty list for an empty box', () => {
    expect(parseBlockedWords('  \n , ')).toEqual([]);
  });

  it('round-trips what formatBlockedWords writes', () => {
    const words = ['scam', 'dm me'];
    expect(parseBlockedWords(formatBlockedWords(words))).toEqual(words);
  });
});

describe('blockedWordsError', () => {
  it('accepts up to 200 words of up to 40 characters', () => {
    expect(blockedWordsError(Array.from({ length: 200 }, (_, i) => `w${i}`))).toBeNull();
    expect(blockedWordsError(['x'.repeat(40)])).toBeNull();
  });

  it('names what is wrong', () => {
    expect(blockedWordsError(Array.from({ length: 201 }, (_, i) => `w${i}`))).toBe(
      'At most 200 blocked words (you have 201)',
    );
    expect(blockedWordsError(['x'.repeat(41)])).toContain('at most 40 characters');
  });
});

describe('slow mode choices', () => {
  it('labels off and seconds', () => {
    expect(slowModeLabel(0)).toBe('Off');
    expect(slowModeLabel(30)).toBe('30 s');
  });

  it('offers the saved value too when the API set one outside the choices', () => {
    expect(slowModeOptions(10)).toEqual([0, 5, 10, 30, 60]);
    expect(slowModeOptions(45)).toEqual([0, 5, 10, 30, 45, 60]);
  });
});
