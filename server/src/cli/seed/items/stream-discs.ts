/** Stream Discs: the category's word lists and item generator. */

import { pick } from '../images.ts';
import { closing, type MakeItem, text } from '../items.ts';

export const DISC_RELEASES: Array<{ name: string; kind: 'Music' | 'Film' | 'Art'; by: string }> = [
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
export const DISC_PERKS = [
  'bonus tracks',
  'a behind-the-scenes documentary',
  'the full-resolution art files',
  'early access to the next drop',
  'a replay of the launch live stream',
];

export const streamDiscs: MakeItem = (r, condition) => {
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
