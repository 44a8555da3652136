/** Audio gear: the category's word lists and item generator. */

import { between, type Motif, pick } from '../images.ts';
import { closing, type MakeItem, text } from '../items.ts';

export const AUDIO_BRANDS = [
  'Marlowe Audio',
  'Kinetic Labs',
  'Soundfield',
  'Aurelia',
  'Tanner & Hale',
  'Lumen Acoustics',
];
export const AUDIO_ITEMS: Array<{
  name: string;
  motif: Motif;
  about: string;
  price: [number, number];
  /** Made in the hi-fi years too, so it may be sold as vintage. */
  vintage?: boolean;
}> = [
  {
    name: 'Bookshelf Speakers (Pair)',
    motif: 'speaker',
    about: 'Two-way design with a 6.5 in woofer and a silk-dome tweeter; warm, detailed sound.',
    price: [120, 900],
    vintage: true,
  },
  {
    name: 'Over-Ear Headphones',
    motif: 'headphones',
    about: 'Closed-back design with memory-foam pads and a detachable cable.',
    price: [60, 550],
    vintage: true,
  },
  {
    name: 'Belt-Drive Turntable',
    motif: 'vinyl',
    about: 'Belt drive with a carbon tonearm, a pre-fitted cartridge and a built-in phono stage.',
    price: [150, 1200],
    vintage: true,
  },
  {
    name: 'Integrated Amplifier',
    motif: 'speaker',
    about: 'Plenty of clean power per channel, a phono input and proper tone controls.',
    price: [250, 1800],
    vintage: true,
  },
  {
    name: 'Tube Preamp',
    motif: 'speaker',
    about: 'A warm valve preamp with a glowing front window.',
    price: [300, 1500],
    vintage: true,
  },
  {
    name: 'Studio Monitors (Pair)',
    motif: 'speaker',
    about: 'Active near-field monitors with a flat, honest response for mixing.',
    price: [180, 1100],
  },
  {
    name: 'Portable Bluetooth Speaker',
    motif: 'speaker',
    about: 'Splash-proof with about 15 hours of battery life.',
    price: [35, 220],
  },
  {
    name: 'Cassette Deck',
    motif: 'cassette',
    about: 'Three-head deck with Dolby noise reduction and a clean transport.',
    price: [90, 600],
    vintage: true,
  },
  {
    name: 'DAC & Headphone Amp',
    motif: 'headphones',
    about: 'A desktop DAC with a powerful headphone output that drives hard-to-drive cans.',
    price: [90, 700],
  },
  {
    name: 'Stereo Receiver',
    motif: 'speaker',
    about: 'Silver-faced receiver with a smooth FM tuner and a satisfying flywheel dial.',
    price: [120, 950],
    vintage: true,
  },
  {
    name: 'In-Ear Monitors',
    motif: 'headphones',
    about: 'Triple-driver in-ears with a braided cable and five sizes of tips.',
    price: [40, 400],
  },
];

export const audioGear: MakeItem = (r, condition) => {
  const brand = pick(r, AUDIO_BRANDS);
  const item = pick(r, AUDIO_ITEMS);
  const model = `${pick(r, ['HX', 'SR', 'M', 'A', 'TX', 'LS'])}-${between(r, 1, 9) * 100 + pick(r, [0, 0, 10, 50])}`;
  const vintage = item.vintage === true && condition !== 'new' && r() < 0.6;
  const state = {
    new: 'Brand new, boxed with all accessories and the full manufacturer warranty.',
    used: 'Tested and working perfectly; minor cosmetic marks consistent with age.',
    refurbished:
      'Bench-serviced: cleaned, recapped where needed, every input and control tested. 6-month warranty.',
  }[condition];
  return {
    title: `${vintage ? `Vintage ${between(r, 197, 199)}0s ` : ''}${brand} ${model} ${item.name}`,
    short: item.name.replace(/ \(.*\)/, ''),
    description: text(item.about, state, closing(r)),
    motif: item.motif,
    price: item.price,
  };
};
