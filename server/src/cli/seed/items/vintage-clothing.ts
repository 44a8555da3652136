/** Vintage clothing: the category's word lists and item generator. */

import { between, pick } from '../images.ts';
import { closing, type MakeItem, text } from '../items.ts';

export const DECADES: Array<[short: string, long: string]> = [
  ["'60s", 'the 1960s'],
  ["'70s", 'the 1970s'],
  ["'80s", 'the 1980s'],
  ["'90s", 'the 1990s'],
  ['Y2K', 'the early 2000s'],
];
export const GARMENTS: Array<{ name: string; fit: 'top' | 'scarf' | 'jeans'; price: [number, number] }> = [
  { name: 'Denim Trucker Jacket', fit: 'top', price: [45, 160] },
  { name: 'Band Tour T-Shirt', fit: 'top', price: [25, 180] },
  { name: 'Fair Isle Cardigan', fit: 'top', price: [40, 120] },
  { name: 'Leather Bomber Jacket', fit: 'top', price: [90, 380] },
  { name: 'Corduroy Western Shirt', fit: 'top', price: [30, 85] },
  { name: 'Silk Scarf', fit: 'scarf', price: [18, 60] },
  { name: 'Colour-Block Windbreaker', fit: 'top', price: [35, 110] },
  { name: 'Flannel Work Shirt', fit: 'top', price: [25, 70] },
  { name: 'Varsity Jacket', fit: 'top', price: [70, 260] },
  { name: 'High-Waist Jeans', fit: 'jeans', price: [35, 120] },
  { name: 'Cable-Knit Sweater', fit: 'top', price: [30, 95] },
  { name: 'Floral Prairie Dress', fit: 'top', price: [40, 140] },
];
export const GARMENT_COLORS = [
  'Indigo',
  'Rust',
  'Cream',
  'Forest Green',
  'Burgundy',
  'Mustard',
  'Faded Black',
  'Sky Blue',
];
export const FABRICS = [
  'heavy cotton twill',
  'soft lambswool',
  'a wool blend',
  'genuine leather',
  'rayon',
  'selvedge denim',
  'cotton',
];

export const vintageClothing: MakeItem = (r, condition) => {
  const [decade, decadeLong] = pick(r, DECADES);
  const garment = pick(r, GARMENTS);
  const color = pick(r, GARMENT_COLORS);
  const size = pick(r, ['XS', 'S', 'M', 'M', 'L', 'XL']);
  const measures = {
    top: `Pit to pit ${between(r, 18, 26)} in, length ${between(r, 24, 31)} in.`,
    scarf: `Measures ${between(r, 26, 36)} x ${between(r, 26, 36)} in.`,
    jeans: `Waist ${between(r, 25, 36)} in, inseam ${between(r, 28, 33)} in.`,
  }[garment.fit];
  const state = {
    new: 'Deadstock with the original tags still attached: never worn.',
    used: 'Gently worn with honest fading that adds character; no holes or stains.',
    refurbished: 'Professionally cleaned and mended; a small repair near the cuff is barely visible.',
  }[condition];
  return {
    title: `Vintage ${decade} ${color} ${garment.name}${garment.fit === 'scarf' ? '' : ` – Size ${size}`}`,
    short: garment.name,
    description: text(
      `Made in ${decadeLong} from ${garment.fit === 'scarf' ? 'silk twill' : pick(r, FABRICS)}, with ${pick(
        r,
        [
          'original buttons',
          'a chain-stitched hem',
          'contrast stitching',
          'a union-made label',
          'a relaxed, boxy fit',
        ],
      )}.`,
      state,
      measures,
      closing(r),
    ),
    motif: 'shirt',
    price: garment.price,
    maxStock: 2,
  };
};
