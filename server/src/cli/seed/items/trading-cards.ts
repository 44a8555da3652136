/** Trading cards: the category's word lists and item generator. */

import { between, pick } from '../images.ts';
import { closing, type MakeItem, text } from '../items.ts';

export const SPORTS = ['Basketball', 'Baseball', 'Football', 'Soccer', 'Hockey'];
export const PLAYERS = [
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
export const SPORT_SETS = ['Chrome Legends', 'Prime Court', 'Diamond Select', 'Heritage Gold', 'Rookie Rush'];
export const TCG_SETS = ['Starfall', 'Mythic Realms', 'Shadow Tides', 'Ember Crown'];
export const CREATURES = [
  'Emberwing Drake',
  'Tidecaller Serpent',
  'Moonlit Fox',
  'Stormhorn Ram',
  'Crystal Golem',
  'Verdant Wyrm',
  'Ashen Phoenix',
];

export const tradingCards: MakeItem = (r, condition) => {
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
