import { describe, expect, it } from 'vitest';
import { findBlockedWord } from './blocked-words.ts';

describe('findBlockedWord', () => {
  it('finds a blocked word whatever its case and the punctuation around it', () => {
    expect(findBlockedWord('This is SPAM!', ['spam'])).toBe('spam');
    expect(findBlockedWord('(spam)', ['spam'])).toBe('spam');
    expect(findBlockedWord('spam', ['spam'])).toBe('spam');
  });

  it('matches whole words only', () => {
    expect(findBlockedWord('a spammer and antispam', ['spam'])).toBeUndefined();
    expect(findBlockedWord('spam_bot', ['spam'])).toBeUndefined();
  });

  it('matches a phrase across any run of spaces', () => {
    expect(findBlockedWord('Buy   now, friends', ['buy now'])).toBe('buy now');
    expect(findBlockedWord('buy it now', ['buy now'])).toBeUndefined();
  });

  it('treats letters of every script as word characters', () => {
    expect(findBlockedWord('Ärger über alles', ['ärger'])).toBe('ärger');
    expect(findBlockedWord('verärgert', ['ärger'])).toBeUndefined();
  });

  it('takes regular-expression characters literally', () => {
    expect(findBlockedWord('win $$$ now', ['$$$'])).toBe('$$$');
    expect(findBlockedWord('a.b', ['a*b'])).toBeUndefined();
  });

  it('finds nothing with an empty list', () => {
    expect(findBlockedWord('anything at all', [])).toBeUndefined();
  });

  it('sees through invisible characters, full-width and look-alike letters', () => {
    for (const message of [
      'SCAM',
      'sc\u200Bam',
      'ｓｃａｍ',
      'ѕсаm',
      'ЅСАМ',
      'scαm',
      '𝐬𝐜𝐚𝐦',
      's\u0336cam',
      'scàm',
    ]) {
      expect(findBlockedWord(`a ${message}!`, ['scam']), message).toBe('scam');
    }
    expect(findBlockedWord('ѕсаmmer', ['scam'])).toBeUndefined();
  });

  it('folds the blocked words the same way and answers the word as the host wrote it', () => {
    expect(findBlockedWord('a scam', ['ЅСАМ'])).toBe('ЅСАМ');
    expect(findBlockedWord('no scam', ['s\u200Bcam'])).toBe('s\u200Bcam');
  });
});
