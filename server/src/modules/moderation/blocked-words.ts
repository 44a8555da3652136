/** Letters, digits and the underscore: what a word is made of, in any script. */
const WORD_CHAR = '[\\p{L}\\p{N}_]';
/** Compiled patterns by word list: a busy room checks every message against the same list. */
const patterns = new Map<string, RegExp>();
const MAX_PATTERNS = 1000;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const normalize = (text: string) => text.trim().replace(/\s+/gu, ' ').toLowerCase();

function patternFor(words: readonly string[]): RegExp | undefined {
  const key = words.join('\n');
  let pattern = patterns.get(key);
  if (!pattern) {
    const alternatives = words.map(normalize).filter(Boolean).map(escapeRegExp);
    if (alternatives.length === 0) return undefined;
    pattern = new RegExp(`(?<!${WORD_CHAR})(?:${alternatives.join('|')})(?!${WORD_CHAR})`, 'u');
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    patterns.set(key, pattern);
  }
  return pattern;
}

/**
 * The first blocked word or phrase the message contains as a whole word, case-insensitively
 * ('spam' blocks 'SPAM!' but not 'spammer'; 'buy now' blocks 'Buy   now'), or undefined.
 */
export function findBlockedWord(message: string, blockedWords: readonly string[]): string | undefined {
  if (blockedWords.length === 0) return undefined;
  return patternFor(blockedWords)?.exec(normalize(message))?.[0];
}
