/** Toys and collectibles: the category's word lists and item generator. */

import { type Motif, pick } from '../images.ts';
import { closing, type MakeItem, text } from '../items.ts';

export const TOYS: Array<{ name: string; motif: Motif; details: string[]; price: [number, number] }> = [
  {
    name: 'Vinyl Art Toy',
    motif: 'robot',
    details: ['standing about 8 in tall', 'with glow-in-the-dark details'],
    price: [25, 250],
  },
  {
    name: 'Die-Cast Car 1:64',
    motif: 'car',
    details: ['with rubber tyres', 'on its original blister card'],
    price: [4, 40],
  },
  {
    name: 'Die-Cast Car 1:18',
    motif: 'car',
    details: ['with opening doors, bonnet and boot', 'with a detailed engine bay'],
    price: [45, 220],
  },
  {
    name: 'Tin Wind-Up Robot',
    motif: 'robot',
    details: ['with a spring-loaded key and sparking chest', 'with lithographed tin panels'],
    price: [20, 180],
  },
  {
    name: 'Action Figure',
    motif: 'robot',
    details: ['with 22 points of articulation', 'with swappable hands and accessories'],
    price: [12, 120],
  },
  {
    name: 'Blind Box Figure',
    motif: 'robot',
    details: ['about 3 in tall', 'from a 12-figure series'],
    price: [8, 25],
  },
  {
    name: 'Enamel Pin Set',
    motif: 'robot',
    details: ['with rubber clutches', 'with glitter fill'],
    price: [10, 30],
  },
  {
    name: 'Building Brick Set',
    motif: 'robot',
    details: ['with over 600 pieces', 'with printed instructions'],
    price: [25, 300],
  },
  {
    name: 'Plush Collectible',
    motif: 'robot',
    details: ['super soft and about 10 in tall', 'with embroidered eyes'],
    price: [15, 60],
  },
];
export const TOY_THEMES = [
  'Space Explorer',
  'Neon Cat',
  'Forest Spirit',
  'Pixel Knight',
  'Deep Sea Diver',
  'Robot Chef',
  'Cosmic Corgi',
  'Midnight Samurai',
  'Desert Nomad',
];
export const CAR_NAMES = [
  "'67 Fastback",
  'Rally Coupe',
  'Desert Runner',
  'Le Mans Prototype',
  'City Taxi',
  'Surf Wagon',
];

export const toys: MakeItem = (r, condition) => {
  const toy = pick(r, TOYS);
  const theme = toy.motif === 'car' ? pick(r, CAR_NAMES) : pick(r, TOY_THEMES);
  const extra =
    r() < 0.3 ? pick(r, ['Limited to 500', 'Series 2', 'Glow Edition', 'Convention Exclusive']) : '';
  const state = {
    new: 'New in the original packaging, never opened.',
    used: 'Displayed in a smoke-free home; complete with all accessories, and the box shows light shelf wear.',
    refurbished:
      'Restored by hand: cleaned, touched up and checked piece by piece. Works and looks as it should.',
  }[condition];
  return {
    title: `${theme} ${toy.name}${extra ? ` – ${extra}` : ''}`,
    short: theme,
    description: text(
      `${pick(r, ['Designed by an independent toy studio', 'A fan favourite from the line', 'Hand-finished in small batches', 'A great display piece'])}, ${pick(r, toy.details)}.`,
      state,
      closing(r),
    ),
    motif: toy.motif,
    price: extra ? [toy.price[0] * 1.5, toy.price[1] * 2] : toy.price,
  };
};
