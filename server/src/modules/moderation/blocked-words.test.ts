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

  it('joins letters spelt apart and reads digits and symbols as the letters they pass for', () => {
    for (const message of [
      's c a m',
      'S C A M',
      's.c.a.m',
      's-c-a-m',
      's_c_a_m',
      's . c . a . m',
      '5cam',
      '$cam',
      'sc@m',
      '5 c 4 m',
      '5.c.4.m',
    ]) {
      expect(findBlockedWord(`what a ${message} this is`, ['scam']), message).toBe('scam');
    }
    expect(findBlockedWord('go to he11', ['hell'])).toBe('hell');
    expect(findBlockedWord('win $$$ now', ['$$$'])).toBe('$$$');
  });

  it('keeps ordinary sentences passing (no false positives from the joining and the digit reading)', () => {
    const blocked = ['scam', 'ass', 'hell', 'sex', 'kill'];
    for (const message of [
      'I paid $5 for shipping, a scammer would ask more',
      'Class of 2024, hello everyone',
      'Grade A vinyl, 5 stars, plan B is the reissue',
      'Track 1 is a B side, track 2 a live take',
      'Massachusetts orders ship Monday at 3:45',
      "I'll sell it at 10% off, she'll be here at 5",
      'Shell shocked by these prices: 55 dollars',
      'skill, classic, assets, Essex and Sussex',
      'a 5 cams bundle',
    ]) {
      expect(findBlockedWord(message, blocked), message).toBeUndefined();
    }
  });
});
