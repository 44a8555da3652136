/** Sneakers: the category's word lists and item generator. */

import { between, pick } from '../images.ts';
import { closing, type MakeItem, text } from '../items.ts';

export const SNEAKER_BRANDS = ['Stride Lab', 'Aerokick', 'Courtline', 'Northpaw', 'Velo', 'Kinetik'];
export const SNEAKER_MODELS: Array<{ name: string; price: [number, number] }> = [
  { name: 'Air Drift 90', price: [90, 220] },
  { name: 'Court Classic Low', price: [60, 140] },
  { name: 'Retro Runner OG', price: [80, 200] },
  { name: 'Hoops 85 High', price: [110, 320] },
  { name: 'Trail Vapor GTX', price: [100, 190] },
  { name: 'Canvas Skate Pro', price: [45, 90] },
  { name: 'Cloud Glide Knit', price: [70, 160] },
  { name: 'Street Low Suede', price: [70, 150] },
];
export const COLORWAYS = [
  'Bred',
  'Triple White',
  'Sail/Gum',
  'Volt Glow',
  'University Blue',
  'Sunset Orange',
  'Olive/Cream',
  'Shadow Grey',
  'Pink Lemonade',
  'Midnight Navy',
];

export const sneakers: MakeItem = (r, condition) => {
  const brand = pick(r, SNEAKER_BRANDS);
  const model = pick(r, SNEAKER_MODELS);
  const colorway = pick(r, COLORWAYS);
  const collab = r() < 0.15 ? pick(r, ['Studio Nomad', 'Pale Blue Club', 'Kofi Kicks', 'Night Market']) : '';
  const size = 6 + between(r, 0, 14) / 2;
  const state = {
    new: 'Deadstock: never worn, with the original box, tissue paper and spare laces.',
    used: `Worn ${pick(r, ['a handful of times', 'lightly for one season', 'indoors only'])}; light creasing on the toe box and plenty of tread left.`,
    refurbished: 'Professionally restored: deep cleaned, midsoles repainted, new insoles and laces.',
  }[condition];
  return {
    title: `${brand} ${model.name}${collab ? ` x ${collab}` : ''} "${colorway}" – US ${size}`,
    short: model.name,
    description: text(
      `The ${model.name} in the ${colorway} colourway, with ${pick(r, [
        'a suede overlay and perforated toe box',
        'a breathable mesh upper',
        'premium tumbled leather',
        'a gum rubber outsole',
        'reflective accents for night runs',
      ])}.`,
      collab && `A limited collaboration with ${collab}.`,
      state,
      `Men's US ${size}; ${pick(r, ['fits true to size', 'runs half a size small', 'roomy in the toe box'])}.`,
      closing(r),
    ),
    motif: 'sneaker',
    price: collab ? [model.price[0] * 3, Math.min(1200, model.price[1] * 5)] : model.price,
    maxStock: collab ? 1 : 6,
  };
};
