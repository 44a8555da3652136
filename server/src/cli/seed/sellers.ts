import { CATEGORIES } from './categories.ts';
/** Sellers: independent artists, labels, creators and businesses. */

export interface SellerDef {
  handle: string;
  firstName: string;
  lastName: string;
  businessName?: string;
  plan: 'free' | 'pro';
  /** Slugs of the categories this seller lists in. */
  sells: string[];
}

export const SELLERS: SellerDef[] = [
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
export const sellersBySlug = new Map<string, string[]>(
  CATEGORIES.map((c) => [
    c.slug,
    SELLERS.flatMap((s) => {
      const rank = s.sells.indexOf(c.slug);
      return rank < 0 ? [] : Array<string>(rank === 0 ? 3 : 1).fill(s.handle);
    }),
  ]),
);
