/** The demo's categories: names, slugs, how many demo products, condition odds, generator. */

import { artPrints } from './items/art-prints.ts';
import { audioGear } from './items/audio-gear.ts';
import { booksComics } from './items/books-comics.ts';
import { cameras } from './items/cameras.ts';
import { homePlants } from './items/home-plants.ts';
import { jewelry } from './items/jewelry.ts';
import { sneakers } from './items/sneakers.ts';
import { streamDiscs } from './items/stream-discs.ts';
import { toys } from './items/toys.ts';
import { tradingCards } from './items/trading-cards.ts';
import { vintageClothing } from './items/vintage-clothing.ts';
import { vinyl } from './items/vinyl.ts';
import type { CategoryDef } from './items.ts';

export const CATEGORIES: CategoryDef[] = [
  {
    name: 'Vinyl & Records',
    slug: 'vinyl-records',
    demoCount: 40,
    conditions: [0.35, 0.5, 0.15],
    make: vinyl,
  },
  {
    name: 'Trading Cards',
    slug: 'trading-cards',
    demoCount: 36,
    conditions: [0.55, 0.45, 0],
    make: tradingCards,
  },
  { name: 'Sneakers', slug: 'sneakers', demoCount: 34, conditions: [0.45, 0.35, 0.2], make: sneakers },
  {
    name: 'Vintage Clothing',
    slug: 'vintage-clothing',
    demoCount: 32,
    conditions: [0.1, 0.7, 0.2],
    make: vintageClothing,
  },
  { name: 'Art Prints', slug: 'art-prints', demoCount: 30, conditions: [0.8, 0.15, 0.05], make: artPrints },
  {
    name: 'Cameras & Film',
    slug: 'cameras-film',
    demoCount: 30,
    conditions: [0.25, 0.45, 0.3],
    make: cameras,
  },
  {
    name: 'Books & Comics',
    slug: 'books-comics',
    demoCount: 30,
    conditions: [0.3, 0.6, 0.1],
    make: booksComics,
  },
  {
    name: 'Toys & Collectibles',
    slug: 'toys-collectibles',
    demoCount: 30,
    conditions: [0.5, 0.35, 0.15],
    make: toys,
  },
  {
    name: 'Home & Plants',
    slug: 'home-plants',
    demoCount: 28,
    conditions: [0.75, 0.2, 0.05],
    make: homePlants,
  },
  { name: 'Jewelry', slug: 'jewelry', demoCount: 28, conditions: [0.55, 0.3, 0.15], make: jewelry },
  { name: 'Audio Gear', slug: 'audio-gear', demoCount: 26, conditions: [0.3, 0.4, 0.3], make: audioGear },
  {
    name: 'Stream Discs',
    slug: 'stream-discs',
    demoCount: 16,
    conditions: [0.85, 0.15, 0],
    make: streamDiscs,
  },
];
