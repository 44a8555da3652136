import { inArray, sql } from 'drizzle-orm';
import { hashPassword } from '../platform/password.ts';
import type { Db } from './client.ts';
import { categories, products, users } from './schema.ts';
import {
  avatarUrl,
  between,
  ensureSeedImages,
  hashString,
  type Motif,
  mulberry32,
  type ProductArt,
  pick,
  productImageUrl,
  type Rng,
  type SeedImagesResult,
} from './seed-images.ts';

/**
 * Demo data: categories, independent sellers and a few hundred products with generated artwork.
 * Everything comes from a seeded PRNG, so every seeded database holds the same catalogue (only
 * the timestamps follow the clock). All demo sellers sign in with DEMO_PASSWORD.
 */

export const DEMO_PASSWORD = 'demo-password';

type Condition = 'new' | 'used' | 'refurbished';
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const DAY_MS = 86_400_000;
const MIN_PRICE_CENTS = 200;
const MAX_PRICE_CENTS = 250_000;
/** Arbitrary constant, next to the migration lock (727_001): serialises seeding across instances. */
export const SEED_LOCK_ID = 727_002;
const DEMO_SEED = 20_240_601;
const INSERT_CHUNK = 500;
const BULK_BATCH = 5_000;
const NO_IMAGE_SHARE = 0.05;

// ---------------------------------------------------------------------------------------------
// Word lists and item generators, one per category
// ---------------------------------------------------------------------------------------------

interface Item {
  title: string;
  /** Printed on the picture. */
  short: string;
  description: string;
  motif: Motif;
  /** Price range of this kind of item, in dollars. */
  price: [number, number];
  /** Most units one seller would have (one-of-a-kind pieces: 1). */
  maxStock?: number;
}

type MakeItem = (r: Rng, condition: Condition) => Item;

interface CategoryDef {
  name: string;
  slug: string;
  /** Products of this category in the demo; also the weight in large catalogues. */
  demoCount: number;
  /** Odds of new, used and refurbished. */
  conditions: [number, number, number];
  make: MakeItem;
}

const CLOSINGS = [
  'Ships within two business days.',
  'Packed with care and shipped with tracking.',
  'Combined shipping on multiple items, just ask.',
  'Local pickup is welcome too.',
  'Questions welcome; I usually reply within a few hours.',
  'Catch it on my next live stream for a closer look.',
  'Smoke-free and pet-free home.',
];

/** 'a' or 'an' before a word. */
const a = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
const text = (...parts: Array<string | false | undefined>) => parts.filter(Boolean).join(' ');
const closing = (r: Rng) => pick(r, CLOSINGS);

const ARTISTS = [
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
const ALBUMS = [
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
const GENRES = [
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
const RECORD_FORMATS: Array<{ name: string; short: string; price: [number, number] }> = [
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

const vinyl: MakeItem = (r, condition) => {
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

const SPORTS = ['Basketball', 'Baseball', 'Football', 'Soccer', 'Hockey'];
const PLAYERS = [
  'Marcus Hale',
  'Diego Alvarez',
  'Jaylen Brooks',
  'Tomás Reyes',
  'Kenji Watanabe',
  'Andre Whitfield',
  'Luca Moretti',
  "Sam O'Connell",
  'Darius King',
  'Elijah Stone',
];
const SPORT_SETS = ['Chrome Legends', 'Prime Court', 'Diamond Select', 'Heritage Gold', 'Rookie Rush'];
const TCG_SETS = ['Starfall', 'Mythic Realms', 'Shadow Tides', 'Ember Crown'];
const CREATURES = [
  'Emberwing Drake',
  'Tidecaller Serpent',
  'Moonlit Fox',
  'Stormhorn Ram',
  'Crystal Golem',
  'Verdant Wyrm',
  'Ashen Phoenix',
];

const tradingCards: MakeItem = (r, condition) => {
  const kind =
    condition === 'new'
      ? pick(r, ['rookie', 'holo', 'box', 'pack', 'rookie'])
      : pick(r, ['rookie', 'holo', 'lot', 'rookie']);
  const single = 'Ships in a penny sleeve and top loader inside a bubble mailer.';
  const slabbed = 'Ships in a padded box, wrapped in bubble wrap.';
  const raw =
    condition === 'new'
      ? 'Pulled from a fresh pack and sleeved straight away: sharp corners and clean surfaces.'
      : pick(r, [
          'Raw card with clean surfaces and light whitening on one back corner.',
          'Raw card, well centred, with a faint print line on the front.',
        ]);
  if (kind === 'rookie') {
    const set = pick(r, SPORT_SETS);
    const player = pick(r, PLAYERS);
    const graded = r() < 0.35 ? pick(r, ['Gem Mint 10', 'Mint 9', 'Mint 9.5']) : '';
    const year = between(r, 1986, 2024);
    return {
      title: `${year} ${set} ${pick(r, SPORTS)} ${player} Rookie Card #${between(r, 1, 300)}${graded ? ` – Graded ${graded}` : ''}`,
      short: `${player} Rookie`,
      description: text(
        `The ${year} ${set} rookie card of ${player}, ${pick(r, ['one of the most chased cards of the set', 'a key card for any team collection', 'a sharp example of a classic design'])}.`,
        graded ? `Graded and encapsulated in a tamper-evident slab with a ${graded} label.` : raw,
        graded ? slabbed : single,
      ),
      motif: 'cards',
      price: graded === 'Gem Mint 10' ? [400, 2500] : graded ? [60, 600] : [4, 120],
      maxStock: graded ? 1 : 4,
    };
  }
  const set = pick(r, TCG_SETS);
  if (kind === 'holo') {
    const creature = pick(r, CREATURES);
    const first = r() < 0.3;
    const total = between(r, 120, 220);
    return {
      title: `${set} ${creature} Holo Rare ${between(r, 1, total)}/${total}${first ? ' 1st Edition' : ''}`,
      short: creature,
      description: text(
        `${creature} from the ${set} expansion, with ${pick(r, ['a bright holographic foil', 'full-art foil treatment', 'the rare cosmos holo pattern'])}.`,
        raw,
        single,
      ),
      motif: 'cards',
      price: first ? [40, 900] : [5, 180],
      maxStock: first ? 2 : 6,
    };
  }
  if (kind === 'box') {
    const packs = pick(r, [24, 36]);
    return {
      title: `${set} Sealed Booster Box (${packs} Packs)`,
      short: `${set} Booster Box`,
      description: text(
        `A factory-sealed booster box of ${set} with ${packs} packs.`,
        'Never searched or weighed; shrink wrap intact.',
        closing(r),
      ),
      motif: 'cards',
      price: [90, 450],
    };
  }
  if (kind === 'pack') {
    return {
      title: `${set} Booster Pack (${pick(r, [10, 11, 15])} Cards)`,
      short: `${set} Pack`,
      description: text(
        `A single sealed booster pack of ${set}.`,
        'Rip it on stream with us or keep it sealed.',
        closing(r),
      ),
      motif: 'cards',
      price: [2, 8],
    };
  }
  const count = pick(r, [50, 100, 200, 500]);
  return {
    title: `Lot of ${count} ${set} Commons & Uncommons`,
    short: `${count}-Card Lot`,
    description: text(
      `${count} assorted ${set} commons and uncommons, no duplicates over four copies.`,
      'Mixed condition from near mint to lightly played; great for binders or decks.',
      closing(r),
    ),
    motif: 'cards',
    price: count <= 100 ? [2, 15] : [10, 45],
  };
};

const SNEAKER_BRANDS = ['Stride Lab', 'Aerokick', 'Courtline', 'Northpaw', 'Velo', 'Kinetik'];
const SNEAKER_MODELS: Array<{ name: string; price: [number, number] }> = [
  { name: 'Air Drift 90', price: [90, 220] },
  { name: 'Court Classic Low', price: [60, 140] },
  { name: 'Retro Runner OG', price: [80, 200] },
  { name: 'Hoops 85 High', price: [110, 320] },
  { name: 'Trail Vapor GTX', price: [100, 190] },
  { name: 'Canvas Skate Pro', price: [45, 90] },
  { name: 'Cloud Glide Knit', price: [70, 160] },
  { name: 'Street Low Suede', price: [70, 150] },
];
const COLORWAYS = [
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

const sneakers: MakeItem = (r, condition) => {
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

const DECADES: Array<[short: string, long: string]> = [
  ["'60s", 'the 1960s'],
  ["'70s", 'the 1970s'],
  ["'80s", 'the 1980s'],
  ["'90s", 'the 1990s'],
  ['Y2K', 'the early 2000s'],
];
const GARMENTS: Array<{ name: string; fit: 'top' | 'scarf' | 'jeans'; price: [number, number] }> = [
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
const GARMENT_COLORS = [
  'Indigo',
  'Rust',
  'Cream',
  'Forest Green',
  'Burgundy',
  'Mustard',
  'Faded Black',
  'Sky Blue',
];
const FABRICS = [
  'heavy cotton twill',
  'soft lambswool',
  'a wool blend',
  'genuine leather',
  'rayon',
  'selvedge denim',
  'cotton',
];

const vintageClothing: MakeItem = (r, condition) => {
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

const ART_SUBJECTS = [
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
const ART_MEDIUMS: Array<{ name: string; about: string; original?: boolean; price: [number, number] }> = [
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

const artPrints: MakeItem = (r, condition) => {
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

const CAMERA_BRANDS = ['Kestrel', 'Halden', 'Orion Optical', 'Mirae', 'Voss', 'Aster'];
interface CameraBody {
  name: string;
  traits: string[];
  /** Takes interchangeable lenses, so it may come with one. */
  mount?: boolean;
  digital?: boolean;
  price: [number, number];
}
const CAMERA_BODIES: CameraBody[] = [
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
const LENSES: Array<{ name: string; price: [number, number] }> = [
  { name: '50mm f/1.8 Prime', price: [60, 220] },
  { name: '28mm f/2.8 Wide-Angle', price: [70, 260] },
  { name: '85mm f/1.4 Portrait', price: [250, 900] },
  { name: '70-200mm f/4 Zoom', price: [300, 1100] },
  { name: '35mm f/2 Compact', price: [150, 520] },
];
const FILMS: Array<{ name: string; price: [number, number] }> = [
  { name: 'Colour Negative 400', price: [12, 18] },
  { name: 'Black & White 400', price: [8, 14] },
  { name: 'Slide Film 100', price: [18, 28] },
  { name: 'Cinema Stock 500T', price: [16, 24] },
];

const cameras: MakeItem = (r, condition) => {
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

const BOOKS: Array<{ title: string; blurb: string }> = [
  {
    title: "The Lighthouse Keeper's Daughter",
    blurb: 'A sweeping family saga set on a windswept northern coast.',
  },
  {
    title: 'A Field Guide to Night Birds',
    blurb: 'A richly illustrated guide to owls, nightjars and other birds of the dark.',
  },
  {
    title: 'Salt and Saffron',
    blurb: 'A cookbook of generous, everyday recipes from a Mediterranean kitchen.',
  },
  { title: "The Clockmaker's Secret", blurb: 'A page-turning mystery set in a Victorian clock workshop.' },
  {
    title: 'Letters From the Orchard',
    blurb: 'A tender novel told in letters between two sisters over forty years.',
  },
  { title: 'Small Wonders', blurb: 'A quiet, beautifully written collection of essays on everyday joy.' },
  { title: 'The Northern Lights Atlas', blurb: 'Maps, photographs and stories from the far north.' },
  { title: 'A Year of Sourdough', blurb: 'Fifty-two breads, one for every week of the year.' },
  {
    title: "The Cartographer's Apprentice",
    blurb: 'A fantasy adventure about a girl who maps places that do not exist yet.',
  },
  {
    title: 'Notes on a Quiet Sea',
    blurb: 'Poems about the coast, the weather and the people who wait for boats.',
  },
  {
    title: 'Houseplants for Beginners',
    blurb: 'Friendly, practical advice for keeping forty popular plants alive.',
  },
];
const AUTHORS = [
  'Helen Marsh',
  'Tobias Greer',
  'Amara Nwosu',
  'Felix Aaltonen',
  'Rosa Delgado',
  'Iris Whitlock',
];
const BOOK_FORMATS: Array<{ name: string; price: [number, number] }> = [
  { name: 'Paperback', price: [2, 15] },
  { name: 'Hardcover', price: [12, 45] },
  { name: 'First Edition Hardcover', price: [40, 600] },
  { name: 'Signed First Printing', price: [60, 900] },
  { name: 'Box Set (3 Volumes)', price: [25, 90] },
];
const COMIC_SERIES = [
  'Captain Comet',
  'The Night Owls',
  'Steel Sparrow',
  'Galaxy Rangers',
  'Moon Patrol',
  'Ghost Signal',
  'The Clockwork Kid',
];
const VILLAINS = ['the Ink Baron', 'Doctor Vortex', 'the Hollow Queen', 'Magnetar', 'the Paper Tiger'];

const booksComics: MakeItem = (r, condition) => {
  if (r() < 0.5) {
    const book = pick(r, BOOKS);
    const author = pick(r, AUTHORS);
    const format = pick(r, BOOK_FORMATS);
    const state = {
      new: 'Brand new, unread copy straight from the publisher.',
      used: 'Light shelf wear to the cover; the pages are clean and unmarked and the binding is tight.',
      refurbished: 'Carefully rebound in cloth by a local bookbinder, with the original pages intact.',
    }[condition];
    return {
      title: `${book.title} by ${author} – ${format.name}`,
      short: book.title,
      description: text(
        book.blurb,
        format.name.startsWith('Signed') && `Signed by ${author} on the title page.`,
        state,
        closing(r),
      ),
      motif: 'books',
      price: format.price,
      maxStock: format.name.includes('First') ? 2 : undefined,
    };
  }
  const series = pick(r, COMIC_SERIES);
  const issue = between(r, 1, 250);
  const year = between(r, 1975, 2024);
  const kind = pick(r, ['issue', 'issue', 'key', 'variant', 'graphic', 'run']);
  const state = {
    new: 'Bagged and boarded straight from the shop: never read.',
    used: 'Read once and stored bagged and boarded; bright colours and a flat spine.',
    refurbished: 'Professionally cleaned and pressed; spine ticks reduced and the cover looks sharp.',
  }[condition];
  const variants: Record<
    string,
    { title: string; short: string; about: string; price: [number, number]; maxStock?: number }
  > = {
    issue: {
      title: `${series} #${issue} (${year})`,
      short: `${series} #${issue}`,
      about: `Issue #${issue} of ${series}, ${pick(r, ['with a classic cover', 'a fan-favourite story arc', 'with gorgeous interior art'])}.`,
      price: [3, 40],
    },
    key: {
      title: `${series} #${issue} (${year}) – First Appearance of ${pick(r, VILLAINS)}`,
      short: `${series} #${issue}`,
      about: `A key issue of ${series}: the first appearance of a villain fans still argue about.`,
      price: [80, 1500],
      maxStock: 1,
    },
    variant: {
      title: `${series} #${issue} (${year}) Variant Cover`,
      short: `${series} #${issue}`,
      about: `A ${pick(r, ['1:25', '1:50', 'convention-exclusive', 'sketch'])} variant cover of ${series} #${issue}.`,
      price: [10, 90],
    },
    graphic: {
      title: `${series} Graphic Novel Vol. ${between(r, 1, 6)}`,
      short: `${series} Vol.`,
      about: `Collects six issues of ${series} in a sturdy trade paperback.`,
      price: [12, 30],
    },
    run: {
      title: `${series} Complete Run #1–12 (${year})`,
      short: `${series} #1–12`,
      about: `All twelve issues of the ${year} ${series} series, in order.`,
      price: [60, 300],
      maxStock: 1,
    },
  };
  const chosen = variants[kind] ?? variants.issue;
  if (!chosen) throw new Error('missing comic variant');
  return {
    title: chosen.title,
    short: chosen.short,
    description: text(chosen.about, state, closing(r)),
    motif: 'comic',
    price: chosen.price,
    maxStock: chosen.maxStock,
  };
};

const TOYS: Array<{ name: string; motif: Motif; details: string[]; price: [number, number] }> = [
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
const TOY_THEMES = [
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
const CAR_NAMES = [
  "'67 Fastback",
  'Rally Coupe',
  'Desert Runner',
  'Le Mans Prototype',
  'City Taxi',
  'Surf Wagon',
];

const toys: MakeItem = (r, condition) => {
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

const PLANTS: Array<{ name: string; care: string; rare?: boolean }> = [
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
const PLANT_SIZES: Array<{ name: string; price: [number, number] }> = [
  { name: 'Rooted Cutting', price: [6, 25] },
  { name: 'in 4" Nursery Pot', price: [12, 35] },
  { name: 'in 6" Ceramic Pot', price: [25, 70] },
  { name: 'Large Floor Plant (4 ft)', price: [80, 220] },
];
const SCENTS = [
  'Fig & Cedar',
  'Sea Salt & Sage',
  'Smoked Vanilla',
  'Rainy Forest',
  'Orange Blossom',
  'Black Tea & Lemon',
];
const HOME_GOODS: Array<{
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

const homePlants: MakeItem = (r, condition) => {
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

const METALS: Array<{ name: string; price: [number, number] }> = [
  { name: 'Sterling Silver', price: [30, 160] },
  { name: '14k Gold', price: [180, 1500] },
  { name: 'Gold Vermeil', price: [45, 180] },
  { name: 'Rose Gold', price: [160, 1200] },
  { name: 'Brass', price: [18, 60] },
  { name: 'Platinum', price: [600, 2500] },
];
const PIECES: Array<{ name: string; ring?: boolean; chain?: boolean }> = [
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
const STONES = [
  'Moonstone',
  'Garnet',
  'Opal',
  'Turquoise',
  'Sapphire',
  'Emerald',
  'Lab Diamond',
  'Freshwater Pearl',
];

const jewelry: MakeItem = (r, condition) => {
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

const AUDIO_BRANDS = [
  'Marlowe Audio',
  'Kinetic Labs',
  'Soundfield',
  'Aurelia',
  'Tanner & Hale',
  'Lumen Acoustics',
];
const AUDIO_ITEMS: Array<{
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

const audioGear: MakeItem = (r, condition) => {
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

const DISC_RELEASES: Array<{ name: string; kind: 'Music' | 'Film' | 'Art'; by: string }> = [
  { name: 'Neon Harvest', kind: 'Music', by: 'Midnight Orchard' },
  { name: 'Slow Satellites', kind: 'Music', by: 'Juno Parade' },
  { name: 'Night Swim', kind: 'Music', by: 'Low Tide Choir' },
  { name: 'Wildflower Tapes', kind: 'Music', by: 'Saffron Kites' },
  { name: 'Paper Boats', kind: 'Film', by: 'Omar Haddad' },
  { name: 'The Lantern Road', kind: 'Film', by: 'Lucia Moreno' },
  { name: 'Glass City', kind: 'Film', by: 'Noah Kim' },
  { name: 'Lunar Phases', kind: 'Art', by: 'Mika Tanaka' },
  { name: 'Wild Poppies', kind: 'Art', by: 'Clara Hughes' },
];
const DISC_PERKS = [
  'bonus tracks',
  'a behind-the-scenes documentary',
  'the full-resolution art files',
  'early access to the next drop',
  'a replay of the launch live stream',
];

const streamDiscs: MakeItem = (r, condition) => {
  const release = pick(r, DISC_RELEASES);
  const state =
    condition === 'new'
      ? 'New and sealed; the NFC chip is activated when it ships.'
      : 'Displayed only; the NFC chip and QR code are tested and working.';
  const tap = (what: string) =>
    `Tap the disc with your phone (NFC) or scan its QR code to stream ${what} instantly and unlock ${pick(r, DISC_PERKS)}.`;
  const kind = pick(r, ['release', 'release', 'release', 'signed', 'pack', 'blank', 'stand']);
  const what = { Music: 'the album', Film: 'the film', Art: 'the collection' }[release.kind];
  if (kind === 'release' || kind === 'signed') {
    const signed = kind === 'signed';
    return {
      title: `${signed ? 'Signed ' : ''}Stream Disc – ${release.name} by ${release.by} (${release.kind} Edition)`,
      short: `${release.name} Disc`,
      description: text(
        tap(what),
        signed && `Hand-signed by ${release.by}.`,
        'A physical collectible for the digital age.',
        state,
      ),
      motif: 'disc',
      price: signed ? [20, 80] : [5, 15],
    };
  }
  const other = {
    pack: {
      title: 'Stream Disc Founders Batch 5-Pack',
      short: 'Founders 5-Pack',
      about: 'Five discs from the limited founders batch, each linked to a different release.',
      price: [22, 30] as [number, number],
    },
    blank: {
      title: 'Blank Stream Discs for Creators (10-Pack)',
      short: 'Creator 10-Pack',
      about:
        'Ten programmable discs: link each one to your own music, film or art drop with the creator tool.',
      price: [30, 60] as [number, number],
    },
    stand: {
      title: 'Stream Disc Display Stand (Walnut)',
      short: 'Disc Stand',
      about: 'A solid walnut stand that shows off three discs, with a slot for the QR card.',
      price: [15, 40] as [number, number],
    },
  }[kind];
  if (!other) throw new Error(`unknown disc item ${kind}`);
  return {
    title: other.title,
    short: other.short,
    description: text(other.about, state, closing(r)),
    motif: 'disc',
    price: other.price,
  };
};

const CATEGORIES: CategoryDef[] = [
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

// ---------------------------------------------------------------------------------------------
// Sellers: independent artists, labels, creators and businesses
// ---------------------------------------------------------------------------------------------

interface SellerDef {
  handle: string;
  firstName: string;
  lastName: string;
  businessName?: string;
  plan: 'free' | 'pro';
  /** Slugs of the categories this seller lists in. */
  sells: string[];
}

const SELLERS: SellerDef[] = [
  {
    handle: 'groovevault_records',
    firstName: 'Marcus',
    lastName: 'Bell',
    businessName: 'Groove Vault Records',
    plan: 'pro',
    sells: ['vinyl-records', 'audio-gear'],
  },
  {
    handle: 'mika_draws',
    firstName: 'Mika',
    lastName: 'Tanaka',
    plan: 'free',
    sells: ['art-prints', 'toys-collectibles'],
  },
  {
    handle: 'kofi_kicks',
    firstName: 'Kofi',
    lastName: 'Mensah',
    businessName: 'Kofi Kicks',
    plan: 'pro',
    sells: ['sneakers', 'vintage-clothing'],
  },
  {
    handle: 'thrift_theory',
    firstName: 'Priya',
    lastName: 'Raman',
    businessName: 'Thrift Theory',
    plan: 'free',
    sells: ['vintage-clothing', 'jewelry'],
  },
  {
    handle: 'lens_and_light',
    firstName: 'Elena',
    lastName: 'Petrova',
    businessName: 'Lens & Light Co.',
    plan: 'pro',
    sells: ['cameras-film'],
  },
  {
    handle: 'paper_moon_comics',
    firstName: 'Sam',
    lastName: 'Rivera',
    businessName: 'Paper Moon Comics',
    plan: 'free',
    sells: ['books-comics', 'toys-collectibles'],
  },
  {
    handle: 'leaf_and_loam',
    firstName: 'Hannah',
    lastName: 'Wells',
    businessName: 'Leaf & Loam',
    plan: 'free',
    sells: ['home-plants'],
  },
  { handle: 'sol_silversmith', firstName: 'Sol', lastName: 'Ortega', plan: 'pro', sells: ['jewelry'] },
  {
    handle: 'hifi_harbor',
    firstName: 'Dev',
    lastName: 'Patel',
    businessName: 'HiFi Harbor',
    plan: 'pro',
    sells: ['audio-gear'],
  },
  {
    handle: 'cardshark_co',
    firstName: 'Tyler',
    lastName: 'Brooks',
    businessName: 'Cardshark Collectibles',
    plan: 'pro',
    sells: ['trading-cards'],
  },
  {
    handle: 'juno_beats',
    firstName: 'Juno',
    lastName: 'Adeyemi',
    plan: 'free',
    sells: ['vinyl-records', 'stream-discs'],
  },
  {
    handle: 'nightowl_press',
    firstName: 'Clara',
    lastName: 'Hughes',
    businessName: 'Night Owl Press',
    plan: 'free',
    sells: ['books-comics', 'art-prints'],
  },
  {
    handle: 'retro_rewind',
    firstName: 'Ben',
    lastName: 'Carter',
    businessName: 'Retro Rewind',
    plan: 'free',
    sells: ['toys-collectibles', 'vinyl-records', 'audio-gear'],
  },
  {
    handle: 'ava_makes',
    firstName: 'Ava',
    lastName: 'Lindqvist',
    plan: 'free',
    sells: ['home-plants', 'jewelry'],
  },
  {
    handle: 'streamdisc_studio',
    firstName: 'Noah',
    lastName: 'Kim',
    businessName: 'Stream Disc Studio',
    plan: 'pro',
    sells: ['stream-discs'],
  },
  {
    handle: 'tidal_tapes',
    firstName: 'Lucia',
    lastName: 'Moreno',
    businessName: 'Tidal Tapes',
    plan: 'free',
    sells: ['vinyl-records', 'stream-discs'],
  },
  {
    handle: 'pixel_pete',
    firstName: 'Pete',
    lastName: 'Nguyen',
    plan: 'free',
    sells: ['toys-collectibles', 'trading-cards'],
  },
  { handle: 'greenhouse_gia', firstName: 'Gia', lastName: 'Romano', plan: 'free', sells: ['home-plants'] },
  {
    handle: 'filmfolk',
    firstName: 'Omar',
    lastName: 'Haddad',
    plan: 'free',
    sells: ['cameras-film', 'art-prints', 'books-comics'],
  },
  {
    handle: 'sole_searcher',
    firstName: 'Jade',
    lastName: 'Wu',
    plan: 'free',
    sells: ['sneakers', 'trading-cards'],
  },
];

/** Per category, the sellers who list in it; a seller's first category counts three times. */
const sellersBySlug = new Map<string, string[]>(
  CATEGORIES.map((c) => [
    c.slug,
    SELLERS.flatMap((s) => {
      const rank = s.sells.indexOf(c.slug);
      return rank < 0 ? [] : Array<string>(rank === 0 ? 3 : 1).fill(s.handle);
    }),
  ]),
);

// ---------------------------------------------------------------------------------------------
// Product drafts
// ---------------------------------------------------------------------------------------------

interface Draft {
  slug: string;
  seller: string;
  title: string;
  short: string;
  description: string;
  motif: Motif;
  condition: Condition;
  priceCents: number;
  stock: number;
  /** How long before "now" it was listed. */
  ageMs: number;
}

interface DemoProduct extends Draft {
  /** Picture products/<n>.svg, or undefined for the few shown without an image. */
  image: number | undefined;
  label: string;
}

function pickCondition(r: Rng, [n, u]: [number, number, number]): Condition {
  const x = r();
  if (x < n) return 'new';
  if (x < n + u) return 'used';
  return 'refurbished';
}

/** Log-uniform within the range, then rounded the way people price things. */
function priceCents(r: Rng, [low, high]: [number, number]): number {
  const dollars = Math.exp(Math.log(low) + r() * (Math.log(high) - Math.log(low)));
  const cents = Math.round(dollars * 100);
  let price: number;
  if (cents < 2_000) price = Math.round(cents / 50) * 50 - (r() < 0.5 ? 1 : 0);
  else if (cents < 20_000) price = Math.round(cents / 100) * 100 - (r() < 0.6 ? 1 : 0);
  else if (cents < 100_000) price = Math.round(cents / 500) * 500;
  else price = Math.round(cents / 2_500) * 2_500;
  return Math.min(MAX_PRICE_CENTS, Math.max(MIN_PRICE_CENTS, price));
}

function draftProduct(r: Rng, category: CategoryDef, maxAgeDays: number): Draft {
  const condition = pickCondition(r, category.conditions);
  const item = category.make(r, condition);
  return {
    slug: category.slug,
    seller: pick(r, sellersBySlug.get(category.slug) ?? []),
    title: item.title,
    short: item.short,
    description: item.description,
    motif: item.motif,
    condition,
    priceCents: priceCents(r, item.price),
    stock: between(
      r,
      1,
      Math.min(item.maxStock ?? 25, condition === 'new' ? 25 : condition === 'used' ? 3 : 6),
    ),
    ageMs: Math.floor(r() * (maxAgeDays * DAY_MS - 60_000)),
  };
}

let demoCatalogue: DemoProduct[] | undefined;

/** The demo products, always the same ones (pure function of DEMO_SEED), computed once. */
function buildDemoCatalogue(): DemoProduct[] {
  if (demoCatalogue) return demoCatalogue;
  const r = mulberry32(DEMO_SEED);
  const list: DemoProduct[] = [];
  const seen = new Set<string>();
  for (const category of CATEGORIES) {
    for (let i = 0; i < category.demoCount; i++) {
      let draft = draftProduct(r, category, 60);
      for (let retry = 0; retry < 10 && seen.has(draft.title); retry++) draft = draftProduct(r, category, 60);
      seen.add(draft.title);
      list.push({ ...draft, image: undefined, label: category.name });
    }
  }
  list.forEach((product, i) => {
    product.image = r() < NO_IMAGE_SHARE ? undefined : i + 1;
  });
  // Make the catalogue span the whole price range: its cheapest item at $2, its dearest at $2,500.
  const byPrice = [...list].sort((a, b) => a.priceCents - b.priceCents);
  const cheapest = byPrice[0];
  const dearest = byPrice[byPrice.length - 1];
  if (cheapest) cheapest.priceCents = MIN_PRICE_CENTS;
  if (dearest) dearest.priceCents = MAX_PRICE_CENTS;
  demoCatalogue = list;
  return list;
}

function demoArt(): { products: ProductArt[]; avatars: Array<{ handle: string; name: string }> } {
  return {
    products: buildDemoCatalogue().flatMap((p) =>
      p.image === undefined
        ? []
        : [
            {
              n: p.image,
              motif: p.motif,
              label: p.label,
              title: p.short,
              seed: hashString(`${p.image}:${p.title}`),
            },
          ],
    ),
    avatars: SELLERS.map((s) => ({
      handle: s.handle,
      name: s.businessName ?? `${s.firstName} ${s.lastName}`,
    })),
  };
}

/** Writes the demo pictures and avatars that are missing under `${dataDir}/media/seed/`. */
export function ensureDemoImages(dataDir: string): SeedImagesResult {
  return ensureSeedImages(dataDir, demoArt());
}

// ---------------------------------------------------------------------------------------------
// Writing to the database
// ---------------------------------------------------------------------------------------------

export interface SeedSummary {
  categories: number;
  sellers: number;
  products: number;
  imagesWritten: number;
  ms: number;
}

export interface SeedOptions {
  log?: (msg: string) => void;
}

interface Inserted {
  categories: number;
  sellers: number;
  products: number;
}

/** Categories and sellers are upserted (kept if present); the demo products are always added. */
async function insertDemo(tx: Tx, passwordHash: string): Promise<Inserted> {
  const now = Date.now();
  await tx
    .insert(categories)
    .values(CATEGORIES.map((c) => ({ name: c.name, slug: c.slug })))
    .onConflictDoNothing();
  const categoryRows = await tx
    .select({ id: categories.id, slug: categories.slug })
    .from(categories)
    .where(
      inArray(
        categories.slug,
        CATEGORIES.map((c) => c.slug),
      ),
    );
  const categoryIds = new Map(categoryRows.map((c) => [c.slug, c.id]));

  await tx
    .insert(users)
    .values(
      SELLERS.map((s, i) => ({
        handle: s.handle,
        email: `${s.handle}@example.com`,
        passwordHash,
        firstName: s.firstName,
        lastName: s.lastName,
        businessName: s.businessName ?? null,
        profileImageUrl: avatarUrl(s.handle),
        plan: s.plan,
        createdAt: new Date(now - (75 + i * 17) * DAY_MS),
      })),
    )
    .onConflictDoNothing();
  const sellerRows = await tx
    .select({ id: users.id, handle: users.handle })
    .from(users)
    .where(
      inArray(
        users.handle,
        SELLERS.map((s) => s.handle),
      ),
    );
  const sellerIds = new Map(sellerRows.map((s) => [s.handle, s.id]));

  const rows = buildDemoCatalogue().map((p) => {
    const sellerId = sellerIds.get(p.seller);
    const categoryId = categoryIds.get(p.slug);
    if (!sellerId || !categoryId) throw new Error(`seed: missing seller ${p.seller} or category ${p.slug}`);
    const createdAt = new Date(now - p.ageMs);
    return {
      sellerId,
      categoryId,
      title: p.title,
      description: p.description,
      priceCents: p.priceCents,
      condition: p.condition,
      imageUrl: p.image === undefined ? null : productImageUrl(p.image),
      stock: p.stock,
      createdAt,
      updatedAt: createdAt,
    };
  });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx.insert(products).values(rows.slice(i, i + INSERT_CHUNK));
  }
  return { categories: categoryRows.length, sellers: sellerRows.length, products: rows.length };
}

/** Fresh planner statistics (PGlite has no autovacuum). Must run outside a transaction. */
async function vacuumAnalyze(db: Db): Promise<void> {
  await db.execute(sql`vacuum analyze`);
}

async function hasCategories(db: Db | Tx): Promise<boolean> {
  const rows = await db.select({ id: categories.id }).from(categories).limit(1);
  return rows.length > 0;
}

async function runSeed(
  db: Db,
  dataDir: string,
  onlyIfEmpty: boolean,
  log: (msg: string) => void,
): Promise<SeedSummary | undefined> {
  const started = performance.now();
  const images = ensureDemoImages(dataDir);
  if (onlyIfEmpty && (await hasCategories(db))) return undefined;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const inserted = await db.transaction(async (tx) => {
    // Two instances starting at once on one PostgreSQL: the second waits here, then sees the data.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_ID}::bigint)`);
    if (onlyIfEmpty && (await hasCategories(tx))) return undefined;
    return insertDemo(tx, passwordHash);
  });
  if (!inserted) return undefined;
  await vacuumAnalyze(db);
  const summary: SeedSummary = {
    ...inserted,
    imagesWritten: images.written,
    ms: Math.round(performance.now() - started),
  };
  log(
    `Seeded demo data: ${summary.categories} categories, ${summary.sellers} sellers, ${summary.products} products ` +
      `(${summary.imagesWritten} images written) in ${(summary.ms / 1000).toFixed(1)} s. ` +
      `Demo sellers sign in with the password '${DEMO_PASSWORD}'.`,
  );
  return summary;
}

/**
 * Seeds the demo catalogue: categories and sellers (kept when they exist already) and the demo
 * products (always added), plus their pictures. Use seedDemoIfEmpty to seed only once.
 */
export async function seedDemo(db: Db, dataDir: string, options: SeedOptions = {}): Promise<SeedSummary> {
  const summary = await runSeed(db, dataDir, false, options.log ?? (() => {}));
  if (!summary) throw new Error('seed: nothing was inserted');
  return summary;
}

/**
 * Makes sure the seed pictures exist (cheap, every start) and seeds the demo when there are no
 * categories yet. Safe when several instances start at once. Returns undefined when it skipped.
 */
export async function seedDemoIfEmpty(
  db: Db,
  dataDir: string,
  log: { info(msg: string): void },
): Promise<SeedSummary | undefined> {
  return runSeed(db, dataDir, true, (msg) => log.info(msg));
}

export interface LargeCatalogueSummary {
  products: number;
  /** Total time, VACUUM ANALYZE included. */
  ms: number;
  vacuumMs: number;
}

/**
 * Benchmark data: adds `count` generated products spread over the demo categories and sellers
 * (seeding the demo first when the database is empty). Rows are built in JS and inserted in
 * batches of BULK_BATCH with one `INSERT ... SELECT FROM unnest(...)` each, in one transaction.
 */
export async function seedLargeCatalogue(
  db: Db,
  dataDir: string,
  count: number,
  options: SeedOptions = {},
): Promise<LargeCatalogueSummary> {
  if (!Number.isInteger(count) || count < 0)
    throw new RangeError(`product count must be a whole number, got ${count}`);
  const log = options.log ?? (() => {});
  await seedDemoIfEmpty(db, dataDir, { info: log });
  const started = performance.now();

  const categoryRows = await db.select({ id: categories.id, slug: categories.slug }).from(categories);
  const categoryIds = new Map(categoryRows.map((c) => [c.slug, c.id]));
  const sellerRows = await db
    .select({ id: users.id, handle: users.handle })
    .from(users)
    .where(
      inArray(
        users.handle,
        SELLERS.map((s) => s.handle),
      ),
    );
  const sellerIds = new Map(sellerRows.map((s) => [s.handle, s.id]));
  const usable = CATEGORIES.filter(
    (c) => categoryIds.has(c.slug) && sellersBySlug.get(c.slug)?.some((h) => sellerIds.has(h)),
  );
  if (usable.length === 0)
    throw new Error('seed: the demo categories and sellers are missing; cannot add products');

  // Pictures: each category cycles through the demo pictures drawn for it.
  const imagesBySlug = new Map<string, number[]>();
  for (const p of buildDemoCatalogue()) {
    if (p.image === undefined) continue;
    const list = imagesBySlug.get(p.slug) ?? [];
    list.push(p.image);
    imagesBySlug.set(p.slug, list);
  }
  const imageTurn = new Map<string, number>();

  const totalWeight = usable.reduce((sum, c) => sum + c.demoCount, 0);
  const pickCategory = (r: Rng): CategoryDef => {
    let x = r() * totalWeight;
    for (const c of usable) {
      x -= c.demoCount;
      if (x < 0) return c;
    }
    return usable[usable.length - 1] as CategoryDef;
  };

  const [{ existing } = { existing: 0 }] = await db
    .select({ existing: sql<number>`count(*)::int` })
    .from(products);
  const r = mulberry32(hashString('large-catalogue') ^ existing);
  const now = Date.now();

  await db.transaction(async (tx) => {
    for (let done = 0; done < count; done += BULK_BATCH) {
      const size = Math.min(BULK_BATCH, count - done);
      const cols = {
        seller: new Array<string>(size),
        category: new Array<number>(size),
        title: new Array<string>(size),
        description: new Array<string>(size),
        price: new Array<number>(size),
        condition: new Array<string>(size),
        image: new Array<string | null>(size),
        stock: new Array<number>(size),
        createdAt: new Array<string>(size),
      };
      for (let i = 0; i < size; i++) {
        const category = pickCategory(r);
        let draft = draftProduct(r, category, 60);
        if (!sellerIds.has(draft.seller)) draft = { ...draft, seller: sellerRows[0]?.handle ?? '' };
        const images = imagesBySlug.get(category.slug) ?? [];
        const turn = imageTurn.get(category.slug) ?? 0;
        imageTurn.set(category.slug, turn + 1);
        const image = images.length > 0 && r() >= NO_IMAGE_SHARE ? images[turn % images.length] : undefined;
        cols.seller[i] = sellerIds.get(draft.seller) ?? '';
        cols.category[i] = categoryIds.get(category.slug) ?? 0;
        cols.title[i] = draft.title;
        cols.description[i] = draft.description;
        cols.price[i] = draft.priceCents;
        cols.condition[i] = draft.condition;
        cols.image[i] = image === undefined ? null : productImageUrl(image);
        cols.stock[i] = draft.stock;
        cols.createdAt[i] = new Date(now - draft.ageMs).toISOString();
      }
      await tx.execute(sql`
        insert into products
          (seller_id, category_id, title, description, price_cents, condition, image_url, stock, created_at, updated_at)
        select s, c, t, d, p, k, i, q, a, a
        from unnest(
          ${sql.param(cols.seller)}::uuid[], ${sql.param(cols.category)}::int[], ${sql.param(cols.title)}::text[],
          ${sql.param(cols.description)}::text[], ${sql.param(cols.price)}::int[], ${sql.param(cols.condition)}::text[],
          ${sql.param(cols.image)}::text[], ${sql.param(cols.stock)}::int[], ${sql.param(cols.createdAt)}::timestamptz[]
        ) as u(s, c, t, d, p, k, i, q, a)`);
      log(`  ${done + size} / ${count} products`);
    }
  });
  const vacuumStarted = performance.now();
  await vacuumAnalyze(db);
  const finished = performance.now();
  return {
    products: count,
    ms: Math.round(finished - started),
    vacuumMs: Math.round(finished - vacuumStarted),
  };
}
