/** Letters, digits and the underscore: what a word is made of, in any script. */
const WORD_CHAR = '[\\p{L}\\p{N}_]';
/** Compiled patterns by word list: a busy room checks every message against the same list. */
const patterns = new Map<string, CompiledList>();

interface CompiledList {
  /** The folded words, and the folded message and its collapsed spacing are matched against it. */
  pattern: RegExp;
  /** The same words with look-alike digits and symbols folded, for the message folded likewise. */
  lookalikePattern: RegExp;
  /** Both kinds of words without spaces or boundaries, for letters spelt apart. */
  speltApartPattern: RegExp;
  /** Folded (either way) -> the word as the host wrote it. */
  words: Map<string, string>;
}
const MAX_PATTERNS = 1000;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Invisible characters: format characters (zero-width space and joiners, soft hyphen, bidi
 * controls, word joiner, BOM) and the rest of the default-ignorables (variation selectors,
 * Hangul fillers). 'sc\u200Bam' reads as 'scam'.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/**
 * Combining diacritics (after NFD): accents and the strike-through and stacked marks of 'zalgo'
 * text. Only the generic blocks: the vowel signs of Indic and other scripts are left alone.
 */
const COMBINING_DIACRITICS = /[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]/gu;

/**
 * Cyrillic and Greek letters drawn like Latin ones, by the letter they pass for (upper and lower
 * case apart: Greek 'Η' passes for H, 'η' for n). A small table of the usual substitutions, not
 * Unicode's whole confusables list.
 */
const CONFUSABLES = new Map<string, string>(
  [
    // Cyrillic
    'АA ВB ЕE ІI ЈJ КK МM НH ОO РP СC ЅS ТT УY ҮY ХX ԀD ԚQ ԜW ӀI',
    'аa вb еe іi јj кk мm нh оo рp сc ѕs тt уy үy хx һh ԁd ԛq ԝw ӏl ьb',
    // Greek
    'ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX',
    'αa βb γy εe ηn ιi κk νv οo ρp τt υu χx ωw',
    // Latin letters that pass for others
    'ıi ȷj ɑa ɡg ßss ẞSS',
  ]
    .flatMap((line) => line.split(' '))
    .map((pair) => [pair.charAt(0), pair.slice(1)]),
);
const CONFUSABLE = new RegExp(`[${[...CONFUSABLES.keys()].join('')}]`, 'gu');

/**
 * What a word or message is compared as: compatibility forms folded (NFKC: full-width 'ｓｃａｍ',
 * mathematical '𝐬𝐜𝐚𝐦' and ligatures become plain letters), invisible characters and combining
 * diacritics removed, look-alike letters replaced by the Latin ones, lower-cased, runs of spaces
 * made one.
 */
export function foldForMatching(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .normalize('NFD')
    .replace(COMBINING_DIACRITICS, '')
    .normalize('NFC')
    .replace(CONFUSABLE, (letter) => CONFUSABLES.get(letter) ?? letter)
    .toLowerCase()
    .trim()
    .replace(/\s+/gu, ' ');
}

/**
 * Digits and symbols written for letters ('5cam', 'sc@m', 'he11'). '1', '!', '|' and 'l' all read
 * as 'i' on both sides, so 'he11' meets 'hell' however it was meant.
 */
const LOOKALIKES = new Map<string, string>(
  ['0o', '1i', 'li', '!i', '|i', '3e', '4a', '@a', '5s', '$s', '7t', '8b', '9g'].map((pair) => [
    pair.charAt(0),
    pair.charAt(1),
  ]),
);
const LOOKALIKE = /[01l!|34@5$789]/g;
const foldLookalikes = (folded: string) => folded.replace(LOOKALIKE, (c) => LOOKALIKES.get(c) ?? c);

/**
 * Runs of two or more single letters or digits spelt apart ('s c a m', 's.c.a.m', 's-c_a-m'),
 * each joined into the letters it spells. A blocked word anywhere in such a run counts ('a s c a
 * m' holds 'scam'); words of two letters or more are not runs, so 'a scam', 'plan B' and
 * ordinary sentences are read as they are.
 */
const SPELT_APART = /(?<![\p{L}\p{N}])[\p{L}\p{N}](?:[^\p{L}\p{N}]{1,3}[\p{L}\p{N}](?![\p{L}\p{N}]))+/gu;
const speltApart = (folded: string) =>
  (folded.match(SPELT_APART) ?? []).map((run) => run.replace(/[^\p{L}\p{N}]/gu, '')).join(' ');

const alternation = (words: Iterable<string>) =>
  new RegExp(`(?<!${WORD_CHAR})(?:${[...words].map(escapeRegExp).join('|')})(?!${WORD_CHAR})`, 'u');

function patternFor(blockedWords: readonly string[]): CompiledList | undefined {
  const key = blockedWords.join('\n');
  let compiled = patterns.get(key);
  if (!compiled) {
    const words = new Map<string, string>();
    const lookalikeWords = new Set<string>();
    for (const word of blockedWords) {
      const folded = foldForMatching(word);
      if (!folded) continue;
      if (!words.has(folded)) words.set(folded, word);
      const lookalike = foldLookalikes(folded);
      lookalikeWords.add(lookalike);
      if (!words.has(lookalike)) words.set(lookalike, word);
    }
    if (words.size === 0) return undefined;
    for (const [folded, word] of [...words]) {
      const joined = folded.replace(/ /g, '');
      if (!words.has(joined)) words.set(joined, word);
    }
    compiled = {
      pattern: alternation(new Set(blockedWords.map(foldForMatching).filter(Boolean))),
      lookalikePattern: alternation(lookalikeWords),
      speltApartPattern: new RegExp(
        [...words.keys()].map((w) => escapeRegExp(w.replace(/ /g, ''))).join('|'),
        'u',
      ),
      words,
    };
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    patterns.set(key, compiled);
  }
  return compiled;
}

/**
 * The first blocked word or phrase (as the host listed it) that the message contains as a whole
 * word, or undefined. Both sides are folded first (foldForMatching), so case, spacing, invisible
 * characters, full-width letters, accents and Cyrillic or Greek look-alikes do not get past it:
 * 'spam' blocks 'SPAM!', 'ｓｐａｍ', 'sp\u200Bam' and 'ѕраm', but not 'spammer'; 'buy now' blocks
 * 'Buy   now'. The message is also read with letters spelt apart joined ('s p a m', 's.p.a.m')
 * and with digits and symbols read as the letters they pass for ('5pam', '$p@m').
 */
export function findBlockedWord(message: string, blockedWords: readonly string[]): string | undefined {
  if (blockedWords.length === 0) return undefined;
  const compiled = patternFor(blockedWords);
  if (!compiled) return undefined;
  const folded = foldForMatching(message);
  const lookalike = foldLookalikes(folded);
  const match =
    compiled.pattern.exec(folded)?.[0] ??
    compiled.lookalikePattern.exec(lookalike)?.[0] ??
    compiled.speltApartPattern.exec(speltApart(folded))?.[0] ??
    compiled.speltApartPattern.exec(speltApart(lookalike))?.[0];
  return match === undefined ? undefined : compiled.words.get(match);
}
