/** Jewelry: the category's word lists and item generator. */

import { between, pick } from '../images.ts';
import { a, closing, type MakeItem, text } from '../items.ts';

export const METALS: Array<{ name: string; price: [number, number] }> = [
  { name: 'Sterling Silver', price: [30, 160] },
  { name: '14k Gold', price: [180, 1500] },
  { name: 'Gold Vermeil', price: [45, 180] },
  { name: 'Rose Gold', price: [160, 1200] },
  { name: 'Brass', price: [18, 60] },
  { name: 'Platinum', price: [600, 2500] },
];
export const PIECES: Array<{ name: string; ring?: boolean; chain?: boolean }> = [
  { name: 'Signet Ring', ring: true },
  { name: 'Hoop Earrings' },
  { name: 'Pendant Necklace', chain: true },
  { name: 'Cuff Bracelet' },
  { name: 'Stacking Rings (Set of 3)', ring: true },
  { name: 'Stud Earrings' },
  { name: 'Chain Bracelet' },
  { name: 'Solitaire Ring', ring: true },
  { name: 'Locket', chain: true },
];
export const STONES = [
  'Moonstone',
  'Garnet',
  'Opal',
  'Turquoise',
  'Sapphire',
  'Emerald',
  'Lab Diamond',
  'Freshwater Pearl',
];

export const jewelry: MakeItem = (r, condition) => {
  const metal = pick(r, METALS);
  const piece = pick(r, PIECES);
  const stone = r() < 0.6 ? pick(r, STONES) : '';
  const state = {
    new: 'Arrives in a gift box with a polishing cloth.',
    used: `Estate piece with a soft, even patina${stone ? '; the stone is secure' : ''}.`,
    refurbished: `Professionally cleaned, polished and checked${stone ? ', with the setting tightened' : ''}.`,
  }[condition];
  return {
    title: `${condition === 'new' ? 'Handmade ' : 'Vintage '}${metal.name} ${stone ? `${stone} ` : ''}${piece.name}`,
    short: `${stone ? `${stone} ` : ''}${piece.name.replace(/ \(.*\)/, '')}`,
    description: text(
      `${condition === 'new' ? 'Made by hand in a small studio' : 'A vintage find'} in ${metal.name.toLowerCase()}${stone ? `, set with ${a(stone.toLowerCase())}` : ''}.`,
      piece.ring &&
        `Ring size US ${between(r, 5, 10)}${condition === 'new' ? '; other sizes made to order' : ''}.`,
      piece.chain && `On a ${pick(r, [16, 18, 20])} in chain.`,
      state,
      closing(r),
    ),
    motif: 'gem',
    price: metal.price,
  };
};
