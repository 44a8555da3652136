/** Vinyl & records: the category's word lists and item generator. */

import { between, pick } from '../images.ts';
import { a, closing, type MakeItem, text } from '../items.ts';

export const ARTISTS = [
  'The Velvet Static',
  'Midnight Orchard',
  'Juno Parade',
  'Low Tide Choir',
  'Saffron Kites',
  'The Paper Lanterns',
  'Northbound Echo',
  'Marisol Vega',
  'Dusty Meridian',
  'Cobalt Hour',
  'The Quiet Arcade',
  'Honeyjar Motel',
  'Ivory Transit',
  'Lena Okafor Trio',
  'Glass Harbor',
  'Static Bloom',
];
export const ALBUMS = [
  'Neon Harvest',
  'Slow Satellites',
  'Paper Moons',
  'Afterglow Avenue',
  'Salt & Static',
  'Blue Hour Sessions',
  'Gold Dust Radio',
  'Late Bloomers',
  'Wildflower Tapes',
  'Night Swim',
  'Concrete Garden',
  'Postcards From Nowhere',
  'Velvet Weather',
  'The Long Way Home',
  'Fever Dream Motel',
  'Sunday Static',
];
export const GENRES = [
  'soul',
  'jazz',
  'dream pop',
  'post-punk',
  'folk',
  'funk',
  'ambient',
  'indie rock',
  'disco',
  'hip-hop',
  'synth-pop',
  'bossa nova',
];
export const RECORD_FORMATS: Array<{ name: string; short: string; price: [number, number] }> = [
  { name: 'LP', short: 'LP', price: [15, 45] },
  { name: '180g LP', short: 'LP', price: [22, 55] },
  { name: '2xLP Gatefold', short: '2xLP', price: [30, 80] },
  { name: '7" Single', short: '7"', price: [6, 25] },
  { name: '12" Maxi Single', short: '12"', price: [10, 35] },
  { name: 'Picture Disc', short: 'Picture Disc', price: [25, 70] },
  { name: 'Colored Vinyl LP', short: 'LP', price: [25, 65] },
  { name: 'Cassette', short: 'Cassette', price: [8, 22] },
  { name: 'Box Set (5 LPs)', short: 'Box Set', price: [80, 260] },
];

export const vinyl: MakeItem = (r, condition) => {
  const artist = pick(r, ARTISTS);
  const album = pick(r, ALBUMS);
  const format = pick(r, RECORD_FORMATS);
  const cassette = format.name === 'Cassette';
  const edition =
    r() < 0.45
      ? pick(r, ['Original Pressing', 'Limited Edition', 'Signed', 'Japanese Import', 'Test Pressing'])
      : '';
  const year = edition === 'Original Pressing' ? between(r, 1965, 1994) : between(r, 1965, 2024);
  const boosts: Record<string, number> = {
    'Original Pressing': 2.5,
    'Limited Edition': 1.5,
    Signed: 2,
    'Japanese Import': 1.8,
    'Test Pressing': 4,
  };
  const boost = boosts[edition] ?? 1;
  const grade = () => pick(r, ['VG', 'VG+', 'VG+', 'NM']);
  const state = {
    new: pick(r, [
      'Brand new and still sealed in the original shrink wrap.',
      'New, unplayed copy with the hype sticker intact.',
    ]),
    used: cassette
      ? 'Plays cleanly on both sides; the case has light scuffs and the J-card is bright.'
      : `Sleeve ${grade()}, vinyl ${grade()}: ${pick(r, [
          'light ring wear on the cover and a clean, quiet play.',
          'a few faint hairlines that do not affect play.',
          'plays through without skips or pops.',
          'original inner sleeve and lyric sheet included.',
        ])}`,
    refurbished: cassette
      ? 'Shell cleaned, new pressure pad fitted and the tape tested end to end.'
      : 'Deep-cleaned on a vacuum record machine and rehoused in fresh anti-static inner and outer sleeves.',
  }[condition];
  return {
    title: `${artist} – ${album} (${year}) ${edition ? `${edition} ` : ''}${format.name}`,
    short: `${album} ${format.short}`,
    description: text(
      `${album} is ${a(pick(r, GENRES))} record ${pick(r, [
        'with warm analog production',
        'full of lush string arrangements',
        'with a rhythm section that never lets up',
        'recorded live to tape over a single weekend',
        'that sounds even better on a good system',
        'that has aged beautifully',
      ])}.`,
      state,
      edition === 'Signed' && 'Signed by the band on the front cover.',
      edition === 'Limited Edition' && `Number ${between(r, 1, 500)} of 500.`,
      edition === 'Test Pressing' && 'One of a small run of test pressings with a hand-written label.',
      closing(r),
    ),
    motif: cassette ? 'cassette' : 'vinyl',
    price: [format.price[0] * boost, format.price[1] * boost],
    maxStock:
      edition === 'Test Pressing'
        ? 1
        : edition === 'Original Pressing' || edition === 'Signed'
          ? 2
          : undefined,
  };
};
