/** Art prints and originals: the category's word lists and item generator. */

import { pick } from '../images.ts';
import { closing, type MakeItem, text } from '../items.ts';

export const ART_SUBJECTS = [
  'Desert Sunset',
  'Koi Pond',
  'City at Night',
  'Botanical Study No. 4',
  'Mountain Lake',
  'Abstract Waves',
  'Midnight Jazz Club',
  'Lighthouse Coast',
  'Retro Space Launch',
  'Alley in the Rain',
  'Wild Poppies',
  'Golden Hour Dunes',
  'Lunar Phases',
  'Fox in the Snow',
];
export const ART_MEDIUMS: Array<{
  name: string;
  about: string;
  original?: boolean;
  price: [number, number];
}> = [
  {
    name: 'Giclée Print',
    about: 'Printed with archival pigment inks on 310gsm cotton rag paper.',
    price: [30, 180],
  },
  {
    name: 'Screen Print',
    about: 'Hand-pulled four-colour screen print on heavyweight stock.',
    price: [40, 220],
  },
  {
    name: 'Risograph Print',
    about: 'Printed on a vintage risograph in bright soy-based inks, so every copy is slightly unique.',
    price: [15, 60],
  },
  {
    name: 'Linocut Print',
    about: 'Hand-carved and hand-printed with oil-based ink on Japanese paper.',
    price: [35, 150],
  },
  {
    name: 'Letterpress Poster',
    about: 'Printed on a 1960s letterpress with a deep, tactile impression.',
    price: [25, 90],
  },
  {
    name: 'Original Watercolour',
    about: 'A one-of-a-kind original painted on cold-press paper.',
    original: true,
    price: [150, 1400],
  },
  {
    name: 'Original Oil on Canvas',
    about: 'A one-of-a-kind oil painting on stretched canvas, wired and ready to hang.',
    original: true,
    price: [400, 2500],
  },
];

export const artPrints: MakeItem = (r, condition) => {
  const subject = pick(r, ART_SUBJECTS);
  const medium = pick(r, ART_MEDIUMS);
  const signed = !medium.original && r() < 0.5;
  const size = pick(r, ['8 x 10 in', '11 x 14 in', '12 x 16 in', '18 x 24 in', 'A4', 'A3']);
  const state = medium.original
    ? {
        new: 'Fresh from the studio; ships wrapped and boxed with a certificate of authenticity.',
        used: 'From a private collection; the surface is clean and the colours are unfaded.',
        refurbished: 'Professionally cleaned and re-framed in a new oak frame.',
      }[condition]
    : {
        new: 'Ships flat in a rigid mailer with a backing board, unframed.',
        used: 'Previously framed; the paper is clean with a faint mat line at the edges.',
        refurbished: 'Professionally re-framed in a new oak frame with UV-protective glazing.',
      }[condition];
  return {
    title: `${subject} – ${signed ? 'Signed ' : ''}${medium.name}, ${size}`,
    short: subject,
    description: text(
      medium.about,
      !medium.original &&
        `Edition of ${pick(r, [25, 50, 100, 150])}, ${signed ? 'signed and numbered' : 'numbered'} by the artist.`,
      state,
      closing(r),
    ),
    motif: 'frame',
    price: signed ? [medium.price[0] * 1.4, medium.price[1] * 1.4] : medium.price,
    maxStock: medium.original ? 1 : undefined,
  };
};
