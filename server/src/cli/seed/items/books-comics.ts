/** Books and comics: the category's word lists and item generator. */

import { between, pick } from '../images.ts';
import { closing, type MakeItem, text } from '../items.ts';

export const BOOKS: Array<{ title: string; blurb: string }> = [
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
export const AUTHORS = [
  'Helen Marsh',
  'Tobias Greer',
  'Amara Nwosu',
  'Felix Aaltonen',
  'Rosa Delgado',
  'Iris Whitlock',
];
export const BOOK_FORMATS: Array<{ name: string; price: [number, number] }> = [
  { name: 'Paperback', price: [2, 15] },
  { name: 'Hardcover', price: [12, 45] },
  { name: 'First Edition Hardcover', price: [40, 600] },
  { name: 'Signed First Printing', price: [60, 900] },
  { name: 'Box Set (3 Volumes)', price: [25, 90] },
];
export const COMIC_SERIES = [
  'Captain Comet',
  'The Night Owls',
  'Steel Sparrow',
  'Galaxy Rangers',
  'Moon Patrol',
  'Ghost Signal',
  'The Clockwork Kid',
];
export const VILLAINS = ['the Ink Baron', 'Doctor Vortex', 'the Hollow Queen', 'Magnetar', 'the Paper Tiger'];

export const booksComics: MakeItem = (r, condition) => {
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
