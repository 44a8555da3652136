import {
  BLOCKED_WORD_MAX_LENGTH,
  BLOCKED_WORDS_MAX,
  SLOW_MODE_CHOICES,
} from '@streamshop/contract/moderation.ts';

/** The blocked-words textarea to a list: one per line or comma separated, trimmed, lower-cased, once each. */
export function parseBlockedWords(text: string): string[] {
  const words = text
    .split(/[\n,]/)
    .map((word) => word.trim().replace(/\s+/g, ' ').toLowerCase())
    .filter(Boolean);
  return [...new Set(words)];
}

/** The saved list back into the textarea, one per line. */
export const formatBlockedWords = (words: readonly string[]): string => words.join('\n');

/** Why the list cannot be saved, or null when it can (the server checks the same). */
export function blockedWordsError(words: readonly string[]): string | null {
  if (words.length > BLOCKED_WORDS_MAX) {
    return `At most ${BLOCKED_WORDS_MAX} blocked words (you have ${words.length})`;
  }
  const long = words.find((word) => word.length > BLOCKED_WORD_MAX_LENGTH);
  return long
    ? `“${long.slice(0, 20)}…” is too long: a blocked word can be at most ${BLOCKED_WORD_MAX_LENGTH} characters`
    : null;
}

export const slowModeLabel = (seconds: number): string => (seconds === 0 ? 'Off' : `${seconds} s`);

/** The slow-mode choices, plus the saved value when it is not one of them (set through the API). */
export function slowModeOptions(current: number): number[] {
  const choices: number[] = [...SLOW_MODE_CHOICES];
  return choices.includes(current) ? choices : [...choices, current].sort((a, b) => a - b);
}
