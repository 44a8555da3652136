/** Cameras and lenses: the category's word lists and item generator. */

import { between, pick } from '../images.ts';
import { closing, type MakeItem, text } from '../items.ts';

export const CAMERA_BRANDS = ['Kestrel', 'Halden', 'Orion Optical', 'Mirae', 'Voss', 'Aster'];
export interface CameraBody {
  name: string;
  traits: string[];
  /** Takes interchangeable lenses, so it may come with one. */
  mount?: boolean;
  digital?: boolean;
  price: [number, number];
}
export const CAMERA_BODIES: CameraBody[] = [
  {
    name: '35mm SLR',
    traits: [
      'with a bright, clear viewfinder',
      'with a fully mechanical shutter',
      'with accurate built-in metering',
    ],
    mount: true,
    price: [80, 450],
  },
  {
    name: 'Rangefinder',
    traits: ['with a quiet leaf shutter', 'with a big, bright rangefinder patch'],
    mount: true,
    price: [180, 1200],
  },
  {
    name: 'Medium Format TLR',
    traits: ['with a waist-level finder', 'that makes twelve square frames per roll'],
    price: [250, 1100],
  },
  { name: 'Instant Camera', traits: ['with automatic exposure', 'with a built-in flash'], price: [60, 180] },
  {
    name: 'Point-and-Shoot 35mm',
    traits: ['that fits in a jacket pocket', 'with a sharp fixed 35mm lens'],
    price: [40, 380],
  },
  {
    name: 'Mirrorless Body',
    traits: ['with a 24-megapixel full-frame sensor', 'with in-body stabilisation and a tilting screen'],
    mount: true,
    digital: true,
    price: [450, 2500],
  },
  {
    name: 'Super 8 Cine Camera',
    traits: ['with a power zoom', 'with variable frame rates'],
    price: [70, 300],
  },
  {
    name: 'Half-Frame Camera',
    traits: ['that gets 72 shots from a roll', 'with a sharp fixed lens'],
    price: [60, 260],
  },
];
export const LENSES: Array<{ name: string; price: [number, number] }> = [
  { name: '50mm f/1.8 Prime', price: [60, 220] },
  { name: '28mm f/2.8 Wide-Angle', price: [70, 260] },
  { name: '85mm f/1.4 Portrait', price: [250, 900] },
  { name: '70-200mm f/4 Zoom', price: [300, 1100] },
  { name: '35mm f/2 Compact', price: [150, 520] },
];
export const FILMS: Array<{ name: string; price: [number, number] }> = [
  { name: 'Colour Negative 400', price: [12, 18] },
  { name: 'Black & White 400', price: [8, 14] },
  { name: 'Slide Film 100', price: [18, 28] },
  { name: 'Cinema Stock 500T', price: [16, 24] },
];

export const cameras: MakeItem = (r, condition) => {
  const brand = pick(r, CAMERA_BRANDS);
  const kind = condition === 'new' ? pick(r, ['body', 'lens', 'film']) : pick(r, ['body', 'body', 'lens']);
  if (kind === 'film') {
    const film = pick(r, FILMS);
    const rolls = pick(r, [3, 5, 10]);
    return {
      title: `${brand} ${film.name} 35mm Film, 36 Exposures – ${rolls} Rolls`,
      short: `${film.name} Film`,
      description: text(
        `${rolls} rolls of ${film.name} film with ${pick(r, ['fine grain and rich colour', 'punchy contrast', 'wide exposure latitude'])}.`,
        `Fresh stock, kept refrigerated until shipping; expires ${between(r, 2026, 2028)}.`,
        closing(r),
      ),
      motif: 'camera',
      price: [film.price[0] * rolls * 0.9, film.price[1] * rolls * 0.9],
    };
  }
  if (kind === 'lens') {
    const lens = pick(r, LENSES);
    const state = {
      new: 'New in the box with both caps and the lens hood.',
      used: 'Clean glass with no haze, fungus or scratches; the focus ring turns smoothly.',
      refurbished: 'Professionally cleaned and re-greased; aperture blades are snappy and oil-free.',
    }[condition];
    return {
      title: `${brand} ${lens.name} Lens`,
      short: `${lens.name.split(' ')[0]} Lens`,
      description: text(
        `A ${pick(r, ['sharp', 'reliable', 'beautifully built'])} ${lens.name} lens for ${brand} mount, ${pick(r, ['with lovely rendering wide open', 'great for portraits and low light', 'an everyday favourite'])}.`,
        state,
        closing(r),
      ),
      motif: 'camera',
      price: lens.price,
    };
  }
  const body = pick(r, CAMERA_BODIES);
  const model = `${pick(r, ['K', 'S', 'M', 'X', 'SR', 'AE'])}${between(r, 1, 9)}${pick(r, ['', '', '0', 'II'])}`;
  const kit = body.mount === true && r() < 0.35;
  const state = body.digital
    ? {
        new: 'Brand new in the box with battery, charger and strap.',
        used: `Fully working with a low shutter count of about ${between(r, 3, 40)}k; clean sensor and light wear on the grip.`,
        refurbished: 'Manufacturer-refurbished: tested, cleaned and sold with a 1-year warranty.',
      }[condition]
    : {
        new: 'New old stock in the original box with the manual, strap and caps.',
        used: 'Fully working and film-tested; shutter speeds sound accurate. Light cosmetic wear on the top plate.',
        refurbished:
          'Serviced by a camera technician: cleaned, lubricated and adjusted, with new light seals. Includes a 90-day warranty.',
      }[condition];
  return {
    title: `${brand} ${model} ${body.name}${kit ? ' with 50mm Lens' : ''}`,
    short: `${brand} ${model}`,
    description: text(
      `${pick(r, ['A dependable', 'A beautifully made', 'A cult-favourite', 'A compact, quiet'])} ${body.name.toLowerCase()} ${pick(r, body.traits)}.`,
      kit && 'Comes with a matching 50mm lens.',
      state,
      closing(r),
    ),
    motif: 'camera',
    price: kit ? [body.price[0] * 1.3, body.price[1] * 1.3] : body.price,
    maxStock: body.digital ? 8 : 2,
  };
};
