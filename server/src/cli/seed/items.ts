/** What every category's item generator makes, and the small helpers of their word lists. */

import { type Motif, pick, type Rng } from './images.ts';

export type Condition = 'new' | 'used' | 'refurbished';

export interface Item {
  title: string;
  /** Printed on the picture. */
  short: string;
  description: string;
  motif: Motif;
  /** Price range of this kind of item, in dollars. */
  price: [number, number];
  /** Most units one seller would have (one-of-a-kind pieces: 1). */
  maxStock?: number;
}

export type MakeItem = (r: Rng, condition: Condition) => Item;

export interface CategoryDef {
  name: string;
  slug: string;
  /** Products of this category in the demo; also the weight in large catalogues. */
  demoCount: number;
  /** Odds of new, used and refurbished. */
  conditions: [number, number, number];
  make: MakeItem;
}

export const CLOSINGS = [
  'Ships within two business days.',
  'Packed with care and shipped with tracking.',
  'Combined shipping on multiple items, just ask.',
  'Local pickup is welcome too.',
  'Questions welcome; I usually reply within a few hours.',
  'Catch it on my next live stream for a closer look.',
  'Smoke-free and pet-free home.',
];

/** 'a' or 'an' before a word. */
export const a = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
export const text = (...parts: Array<string | false | undefined>) => parts.filter(Boolean).join(' ');
export const closing = (r: Rng) => pick(r, CLOSINGS);
