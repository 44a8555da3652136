/** Home goods and plants: the category's word lists and item generator. */

import { type Motif, pick, type Rng } from '../images.ts';
import { closing, type MakeItem, text } from '../items.ts';

export const PLANTS: Array<{ name: string; care: string; rare?: boolean }> = [
  {
    name: 'Monstera Deliciosa',
    care: 'Happy in bright, indirect light; water when the top inch of soil is dry.',
  },
  { name: 'Fiddle Leaf Fig', care: 'Loves a bright spot away from draughts; water deeply and let it drain.' },
  { name: 'Snake Plant', care: 'Thrives on neglect and low light; let the soil dry out between waterings.' },
  { name: 'Golden Pothos', care: 'An easy trailing plant for shelves; tolerates low light.' },
  { name: 'String of Pearls', care: 'Give it a sunny windowsill and water sparingly.' },
  { name: 'Calathea Orbifolia', care: 'Likes humidity and filtered light; keep the soil lightly moist.' },
  { name: 'Hoya Carnosa', care: 'Waxy leaves and sweet-scented flowers; bright light and little water.' },
  { name: 'Bird of Paradise', care: 'A statement plant for a sunny room; water when the topsoil is dry.' },
  { name: 'ZZ Plant', care: 'Glossy and nearly indestructible; fine in low light.' },
  {
    name: 'Pink Princess Philodendron',
    care: 'Variegated pink leaves; bright, indirect light keeps the colour.',
    rare: true,
  },
];
export const PLANT_SIZES: Array<{ name: string; price: [number, number] }> = [
  { name: 'Rooted Cutting', price: [6, 25] },
  { name: 'in 4" Nursery Pot', price: [12, 35] },
  { name: 'in 6" Ceramic Pot', price: [25, 70] },
  { name: 'Large Floor Plant (4 ft)', price: [80, 220] },
];
export const SCENTS = [
  'Fig & Cedar',
  'Sea Salt & Sage',
  'Smoked Vanilla',
  'Rainy Forest',
  'Orange Blossom',
  'Black Tea & Lemon',
];
export const HOME_GOODS: Array<{
  name: (r: Rng) => string;
  short: string;
  about: (r: Rng) => string;
  motif: Motif;
  price: [number, number];
  /** Found second-hand too. */
  vintage?: boolean;
}> = [
  {
    name: () => 'Hand-Thrown Stoneware Planter',
    short: 'Stoneware Planter',
    about: (r) =>
      `Wheel-thrown in small batches with a ${pick(r, ['speckled cream', 'deep teal', 'matte charcoal'])} glaze and a drainage hole.`,
    motif: 'plant',
    price: [28, 90],
    vintage: true,
  },
  {
    name: () => 'Macramé Plant Hanger',
    short: 'Plant Hanger',
    about: () => 'Knotted by hand from soft cotton cord; fits pots up to 8 in across.',
    motif: 'plant',
    price: [15, 45],
    vintage: true,
  },
  {
    name: () => 'Brass Plant Mister',
    short: 'Plant Mister',
    about: () => 'A solid brass mister with a fine spray for humidity-loving plants.',
    motif: 'plant',
    price: [18, 48],
    vintage: true,
  },
  {
    name: () => 'Glass Terrarium Kit',
    short: 'Terrarium Kit',
    about: () => 'Everything for a tiny garden: a glass globe, layered soil, moss and two baby plants.',
    motif: 'plant',
    price: [30, 85],
  },
  {
    name: (r) => `Soy Candle – ${pick(r, SCENTS)}`,
    short: 'Soy Candle',
    about: (r) =>
      `Hand-poured in a reusable amber jar with a cotton wick; about ${pick(r, [40, 50, 60])} hours of burn time.`,
    motif: 'candle',
    price: [14, 38],
  },
  {
    name: () => 'Beeswax Taper Candles (Pair)',
    short: 'Beeswax Tapers',
    about: () => 'Dipped by hand from local beeswax; they burn clean with a faint honey scent.',
    motif: 'candle',
    price: [12, 30],
  },
];

export const homePlants: MakeItem = (r, condition) => {
  if (condition === 'new' && r() < 0.6) {
    const plant = pick(r, PLANTS);
    const size = pick(r, PLANT_SIZES);
    return {
      title: `${plant.name} – ${size.name}`,
      short: plant.name,
      description: text(
        plant.care,
        'Shipped in insulated packaging with a heat pack in the cold months; arrives healthy or we replace it.',
        closing(r),
      ),
      motif: 'plant',
      price: plant.rare ? [size.price[0] * 3, size.price[1] * 3] : size.price,
    };
  }
  const good = pick(
    r,
    HOME_GOODS.filter((g) => condition === 'new' || g.vintage),
  );
  const state = {
    new: 'New and made to order.',
    used: 'Vintage piece in lovely used condition with a soft patina.',
    refurbished: 'Vintage piece, cleaned and restored to working order.',
  }[condition];
  return {
    title: `${condition === 'new' ? '' : 'Vintage '}${good.name(r)}`,
    short: good.short,
    description: text(good.about(r), state, closing(r)),
    motif: good.motif,
    price: good.price,
  };
};
