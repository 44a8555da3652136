import { DISC_STEPS, type ExplainerStep, FILM_STEPS, MUSIC_STEPS } from './components/explainer.tsx';
import { FILM_REACTIONS, MUSIC_REACTIONS, type ReactionChoice } from './components/reactions.tsx';

export type StreamDiscVariant = 'disc' | 'music' | 'film';

interface VariantCopy {
  title: string;
  subtitle: string;
  edition: string;
  steps: ExplainerStep[];
  reactions: ReactionChoice[];
  videoTitle: string;
  benefits: { title: string; text: string }[];
}

/** Each Stream Disc page's texts, explainer steps and reactions. */
export const STREAM_DISC_COPY: Record<StreamDiscVariant, VariantCopy> = {
  disc: {
    title: 'The Future Is Here',
    subtitle:
      'Stream Disc is a collectible you can hold and a link you can tap. One touch of a phone streams the album, the film or the artwork behind it, and opens the creator’s shop.',
    edition: 'Stream Disc',
    steps: DISC_STEPS,
    reactions: MUSIC_REACTIONS,
    videoTitle: 'How Stream Disc works',
    benefits: [
      {
        title: 'Tap to stream',
        text: 'An NFC chip and a printed QR code open the release on any phone, in the browser, with nothing to install.',
      },
      {
        title: 'Tap to buy',
        text: 'The same tap opens the creator’s StreamShop storefront: merch, tickets and the next drop, in two taps at checkout.',
      },
      {
        title: 'Made to keep',
        text: 'Each disc is numbered and tied to its owner, so the extras keep coming long after release day.',
      },
    ],
  },
  music: {
    title: 'Stream Disc: A Modern Alternative to CDs & Vinyl',
    subtitle:
      'Give fans something for the shelf that plays everywhere. The Music Edition holds your album in full quality, with liner notes, lyrics and bonus tracks one tap away.',
    edition: 'Music Edition',
    steps: MUSIC_STEPS,
    reactions: MUSIC_REACTIONS,
    videoTitle: 'Stream Disc Music Edition',
    benefits: [
      {
        title: 'No player needed',
        text: 'CDs need a drive and vinyl needs a turntable. A phone is all a Stream Disc needs.',
      },
      {
        title: 'More than the record',
        text: 'Lyrics, credits, stems for remix contests and listening-party invites come with the disc.',
      },
      {
        title: 'Sell at the show',
        text: 'Lighter than vinyl and cheaper to press, so the merch table carries more and ships for less.',
      },
    ],
  },
  film: {
    title: 'Stream Disc: A Modern Alternative to DVDs & Blu-ray',
    subtitle:
      'A collectible edition for films that lives on the shelf and streams on any screen. Tap to watch in HD, with the commentary and the extras that used to need a second disc.',
    edition: 'Film Edition',
    steps: FILM_STEPS,
    reactions: FILM_REACTIONS,
    videoTitle: 'Stream Disc Film Edition',
    benefits: [
      {
        title: 'No disc drive',
        text: 'Laptops and consoles dropped their drives. A tap from a phone plays the film, or casts it to the TV.',
      },
      {
        title: 'Extras that grow',
        text: 'Add a director’s cut, a Q&A recording or festival laurels after release, and every owner gets them.',
      },
      {
        title: 'For indie distribution',
        text: 'Sell at screenings and festivals with the price tiers below, from a single copy to a full run.',
      },
    ],
  },
};
