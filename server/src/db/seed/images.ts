import { mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Generated artwork for the demo data: product pictures and seller avatars as small SVG files,
 * drawn from SVG primitives and a seeded PRNG, so the same seed always gives the same picture.
 * Nothing is downloaded. Files live under `${dataDir}/media/seed/` and the app serves them at
 * `/media/seed/...`.
 */

export type Rng = () => number;

/** mulberry32: a tiny, fast, seeded PRNG; good enough for demo data and deterministic. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a: a stable 32-bit seed from a string. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function pick<T>(r: Rng, items: readonly T[]): T {
  const item = items[Math.floor(r() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

export function between(r: Rng, min: number, max: number): number {
  return Math.floor(min + r() * (max - min + 1));
}

export const SEED_MEDIA_PREFIX = '/media/seed';

export function productImageUrl(n: number): string {
  return `${SEED_MEDIA_PREFIX}/products/${n}.svg`;
}

export function avatarUrl(handle: string): string {
  return `${SEED_MEDIA_PREFIX}/avatars/${handle}.svg`;
}

/** The drawings available for products; the seed picks one per category (or per item). */
export type Motif =
  | 'vinyl'
  | 'cassette'
  | 'cards'
  | 'sneaker'
  | 'shirt'
  | 'frame'
  | 'camera'
  | 'books'
  | 'comic'
  | 'robot'
  | 'car'
  | 'plant'
  | 'candle'
  | 'gem'
  | 'headphones'
  | 'speaker'
  | 'disc';

export interface ProductArt {
  /** File number: products/<n>.svg */
  n: number;
  motif: Motif;
  /** Category name shown small above the title. */
  label: string;
  /** Short title printed on the picture. */
  title: string;
  seed: number;
}

export interface AvatarArt {
  handle: string;
  /** Name the initials come from. */
  name: string;
}

interface Palette {
  /** Main accent, secondary accent, light and dark tones of the drawing. */
  a: string;
  b: string;
  light: string;
  dark: string;
  hue: number;
}

const FONT = 'Helvetica,Arial,sans-serif';

const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h) % 360},${s}%,${l}%)`;

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A star polygon's points around (cx, cy). */
function star(cx: number, cy: number, outer: number, inner: number, tips: number): string {
  const points: string[] = [];
  for (let i = 0; i < tips * 2; i++) {
    const radius = i % 2 === 0 ? outer : inner;
    const angle = (Math.PI * i) / tips - Math.PI / 2;
    points.push(`${Math.round(cx + radius * Math.cos(angle))},${Math.round(cy + radius * Math.sin(angle))}`);
  }
  return points.join(' ');
}

/** An arc path of radius r around (cx, cy) from angle a0 to a1 (degrees, clockwise from +x). */
function arc(cx: number, cy: number, r: number, a0: number, a1: number): string {
  const rad = Math.PI / 180;
  const x0 = Math.round(cx + r * Math.cos(a0 * rad));
  const y0 = Math.round(cy + r * Math.sin(a0 * rad));
  const x1 = Math.round(cx + r * Math.cos(a1 * rad));
  const y1 = Math.round(cy + r * Math.sin(a1 * rad));
  return `M${x0} ${y0}A${r} ${r} 0 0 1 ${x1} ${y1}`;
}

type Draw = (r: Rng, c: Palette) => string;

/** Each drawing is centred on (0, 0) in a box of about 250 x 220 units. */
const MOTIFS: Record<Motif, Draw> = {
  vinyl: (_r, c) =>
    `<rect x="-135" y="-95" width="180" height="180" rx="6" fill="${c.b}"/>` +
    `<circle cx="-75" cy="-5" r="42" fill="none" stroke="${c.light}" stroke-width="10"/>` +
    '<g transform="translate(45 -5)"><circle r="95" fill="#111"/>' +
    [82, 70, 58, 46].map((r) => `<circle r="${r}" fill="none" stroke="#2c2c2c" stroke-width="2"/>`).join('') +
    '<path d="M-52-62A82 82 0 0 1 42-70" fill="none" stroke="#fff" stroke-opacity=".2" stroke-width="8" stroke-linecap="round"/>' +
    `<circle r="30" fill="${c.a}"/><circle r="4" fill="#f5f5f5"/></g>`,

  cassette: (_r, c) =>
    '<rect x="-125" y="-78" width="250" height="156" rx="12" fill="#1d1d1f"/>' +
    `<rect x="-110" y="-64" width="220" height="94" rx="6" fill="${c.a}"/>` +
    `<rect x="-110" y="-64" width="220" height="22" rx="6" fill="${c.light}"/>` +
    '<rect x="-62" y="-32" width="124" height="46" rx="23" fill="#2b2b2b"/>' +
    [-36, 36]
      .map(
        (x) => `<circle cx="${x}" cy="-9" r="16" fill="#eee"/><circle cx="${x}" cy="-9" r="6" fill="#333"/>`,
      )
      .join('') +
    '<path d="M-72 78l12-34h120l12 34z" fill="#2b2b2b"/>' +
    '<circle cx="-40" cy="62" r="5" fill="#111"/><circle cx="40" cy="62" r="5" fill="#111"/>',

  cards: (_r, c) =>
    [
      [-16, c.b],
      [0, c.dark],
      [16, c.a],
    ]
      .map(
        ([deg, fill]) =>
          `<g transform="rotate(${deg} 0 130)"><rect x="-64" y="-95" width="128" height="180" rx="10" fill="#f7f3e8" stroke="#000" stroke-opacity=".15"/>` +
          `<rect x="-55" y="-86" width="110" height="112" rx="6" fill="${fill}"/>` +
          '<rect x="-55" y="36" width="110" height="10" rx="3" fill="#c9c3b4"/><rect x="-55" y="54" width="72" height="8" rx="3" fill="#ddd6c6"/></g>',
      )
      .join('') +
    `<g transform="rotate(16 0 130)"><circle cx="0" cy="-30" r="30" fill="#fff" fill-opacity=".85"/>` +
    `<polygon points="${star(0, -30, 24, 10, 5)}" fill="${c.b}"/></g>`,

  sneaker: (_r, c) =>
    '<g transform="translate(0 15)">' +
    '<path d="M-128 32h246a14 14 0 0 1 0 30h-246a14 14 0 0 1 0-30z" fill="#f4f4f4"/>' +
    `<path d="M-130 46h258" stroke="${c.b}" stroke-width="4"/>` +
    `<path d="M-58-58l12-22 22 8-10 22z" fill="${c.light}"/>` +
    `<path d="M-124 34c-5-42 2-76 26-88l42-6c14 24 34 40 62 47 46 10 92 14 100 47z" fill="${c.a}"/>` +
    `<path d="M-98-54c-14 22-16 52-8 88h-18c-5-42 2-76 26-88z" fill="${c.dark}"/>` +
    '<path d="M-92 8c44 10 96 0 156-24-30 36-94 48-156 40z" fill="#fff" fill-opacity=".9"/>' +
    '<path d="M-48-52l14 12m-2-24l14 12m-2-22l14 12" stroke="#fff" stroke-width="6" stroke-linecap="round"/>' +
    `<path d="M56 6c22 3 44 8 52 26" fill="none" stroke="${c.light}" stroke-width="6" stroke-linecap="round"/></g>`,

  shirt: (r, c) =>
    '<path d="M0-104v-10c0-6 10-6 10-14a10 10 0 0 0-20 0" fill="none" stroke="#ddd" stroke-width="4"/>' +
    '<path d="M0-104L-70-88M0-104L70-88" stroke="#ddd" stroke-width="4"/>' +
    `<path d="M-48-98L-114-66L-88-14L-66-26V104H66V-26L88-14L114-66L48-98C30-76-30-76-48-98Z" fill="${c.a}"/>` +
    `<path d="M-48-98C-30-76 30-76 48-98" fill="none" stroke="${c.dark}" stroke-width="7"/>` +
    (r() < 0.5
      ? `<circle cy="18" r="34" fill="${c.light}"/><rect x="-34" y="22" width="68" height="6" fill="${c.a}"/><rect x="-34" y="34" width="68" height="6" fill="${c.a}"/><rect x="-34" y="46" width="68" height="6" fill="${c.a}"/>`
      : `<rect x="-66" y="-10" width="132" height="14" fill="${c.light}"/><rect x="-66" y="14" width="132" height="14" fill="${c.b}"/>`),

  frame: (r, c) =>
    `<rect x="-118" y="-104" width="236" height="208" fill="${pick(r, ['#6b4a2b', '#2b2b2b', '#c9a45c', '#eeeeee'])}"/>` +
    '<rect x="-106" y="-92" width="212" height="184" fill="#f3efe6"/>' +
    `<rect x="-88" y="-74" width="176" height="148" fill="${c.b}"/>` +
    `<circle cx="${between(r, -50, 50)}" cy="-28" r="22" fill="${c.light}"/>` +
    `<path d="M-88 74L-34 2L2 42L38-8L88 74Z" fill="${c.dark}"/>` +
    `<path d="M-88 74L-52 30L-16 74Z" fill="${c.a}"/>`,

  camera: (_r, c) =>
    '<path d="M-52-56l14-30h76l14 30z" fill="#2e2e2e"/>' +
    `<rect x="78" y="-68" width="22" height="14" rx="3" fill="${c.light}"/>` +
    '<rect x="-122" y="-58" width="244" height="146" rx="16" fill="#222"/>' +
    `<rect x="-122" y="-22" width="244" height="74" fill="${c.a}"/>` +
    '<rect x="-104" y="-46" width="36" height="16" rx="3" fill="#666"/>' +
    '<circle cy="16" r="60" fill="#111" stroke="#444" stroke-width="6"/>' +
    '<circle cy="16" r="40" fill="#1c1c1c" stroke="#333" stroke-width="3"/>' +
    '<circle cy="16" r="24" fill="url(#l)"/><circle cx="-8" cy="7" r="6" fill="#fff" fill-opacity=".6"/>',

  books: (r, c) =>
    [
      [-112, 44, 224, c.a],
      [-96, 2, 196, c.b],
      [-104, -40, 206, c.dark],
    ]
      .map(
        ([x, y, w, fill]) =>
          `<rect x="${x}" y="${y}" width="${w}" height="42" rx="4" fill="${fill}"/>` +
          `<rect x="${x}" y="${Number(y) + 8}" width="${w}" height="5" fill="#fff" fill-opacity=".45"/>` +
          `<rect x="${Number(x) + Number(w) - 10}" y="${Number(y) + 4}" width="8" height="34" fill="#f5f0e1"/>`,
      )
      .join('') +
    `<g transform="rotate(${between(r, -6, 6)} 0 -40)"><path d="M0-44c-30-12-60-12-88-2v-48c28-10 58-10 88 2z" fill="#fff"/>` +
    '<path d="M0-44c30-12 60-12 88-2v-48c-28-10-58-10-88 2z" fill="#efe7d3"/>' +
    `<path d="M-72-80c18-6 38-6 56 0m-56 14c18-6 38-6 56 0M16-80c18-6 38-6 56 0m-56 14c18-6 38-6 56 0" stroke="${c.dark}" stroke-opacity=".35" stroke-width="3" fill="none"/></g>`,

  comic: (r, c) =>
    '<rect x="-112" y="-104" width="150" height="208" fill="#fff"/>' +
    `<rect x="-102" y="-94" width="62" height="86" fill="${c.b}"/><rect x="-34" y="-94" width="62" height="86" fill="${c.light}"/>` +
    `<rect x="-102" y="-2" width="130" height="96" fill="${c.a}"/>` +
    `<polygon points="${star(50, 10, 80, 48, 12)}" fill="#ffd43b" stroke="#111" stroke-width="4"/>` +
    `<text x="50" y="24" text-anchor="middle" font-family="${FONT}" font-size="34" font-weight="900" fill="${c.dark}" transform="rotate(-8 50 10)">${pick(r, ['POW!', 'WOW!', 'ZAP!', 'BAM!'])}</text>`,

  robot: (_r, c) =>
    '<path d="M0-82v-22" stroke="#ccc" stroke-width="5"/>' +
    `<circle cy="-108" r="9" fill="${c.light}"/>` +
    `<rect x="-56" y="-84" width="112" height="82" rx="14" fill="${c.a}"/>` +
    [-22, 22]
      .map(
        (x) =>
          `<circle cx="${x}" cy="-48" r="14" fill="#fff"/><circle cx="${x}" cy="-48" r="6" fill="#111"/>`,
      )
      .join('') +
    `<rect x="-26" y="-22" width="52" height="8" rx="4" fill="${c.dark}"/>` +
    `<rect x="-96" y="14" width="22" height="62" rx="11" fill="${c.a}"/><rect x="74" y="14" width="22" height="62" rx="11" fill="${c.a}"/>` +
    `<rect x="-70" y="6" width="140" height="92" rx="12" fill="${c.b}"/>` +
    `<circle cy="46" r="18" fill="${c.light}"/><circle cy="46" r="7" fill="${c.dark}"/>`,

  car: (_r, c) =>
    `<path d="M-126 36V10c0-10 8-16 18-18l40-6 32-30c6-5 12-7 20-7h52c10 0 16 3 22 9l26 28 30 6c10 2 14 8 14 18v26z" fill="${c.a}"/>` +
    `<path d="M-58-16l26-26h36v26z" fill="${c.light}"/><path d="M12-42h30l24 26H12z" fill="${c.light}"/>` +
    '<rect x="-120" y="8" width="242" height="7" fill="#fff" fill-opacity=".75"/>' +
    [-72, 74]
      .map(
        (x) => `<circle cx="${x}" cy="36" r="26" fill="#111"/><circle cx="${x}" cy="36" r="11" fill="#bbb"/>`,
      )
      .join(''),

  plant: (r, c) => {
    const leaves = [-64, -38, -14, 10, 34, 60]
      .map(
        (deg) =>
          `<ellipse cy="-48" rx="${between(r, 16, 24)}" ry="${between(r, 44, 58)}" fill="${hsl(between(r, 110, 150), between(r, 40, 60), between(r, 28, 44))}" transform="rotate(${deg} 0 20)"/>`,
      )
      .join('');
    return `${leaves}<path d="M-58 24h116l-16 82h-84z" fill="${c.a}"/><rect x="-68" y="12" width="136" height="22" rx="4" fill="${c.b}"/>`;
  },

  candle: (_r, c) =>
    '<circle cy="-62" r="44" fill="#ffd27a" fill-opacity=".22"/>' +
    '<path d="M0-86c20 20 16 44 0 50-16-6-20-30 0-50z" fill="#ffb02e"/><path d="M0-68c9 11 7 24 0 28-7-4-9-17 0-28z" fill="#fff3b0"/>' +
    '<path d="M0-36v10" stroke="#333" stroke-width="3"/>' +
    `<rect x="-62" y="-26" width="124" height="130" rx="12" fill="${c.light}"/>` +
    `<rect x="-62" y="16" width="124" height="50" fill="${c.a}"/>` +
    `<rect x="-40" y="30" width="80" height="8" rx="4" fill="#fff" fill-opacity=".8"/>`,

  gem: (r, c) =>
    `<circle cy="40" r="64" fill="none" stroke="${pick(r, ['#e2b755', '#d9d9df', '#e8a48c'])}" stroke-width="14"/>` +
    `<polygon points="-58,-46 -32,-76 32,-76 58,-46" fill="${c.light}"/>` +
    `<polygon points="-58,-46 58,-46 0,22" fill="${c.a}"/>` +
    '<path d="M-32-76L-18-46L0-76L18-46L32-76M-18-46L0 22L18-46" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width="2"/>' +
    [
      [-98, -70, 14],
      [96, -30, 10],
      [78, -92, 7],
    ]
      .map(
        ([x, y, s]) =>
          `<polygon points="${star(Number(x), Number(y), Number(s), Number(s) / 4, 4)}" fill="#fff"/>`,
      )
      .join(''),

  headphones: (_r, c) =>
    `<path d="M-88 34V4a88 88 0 0 1 176 0v30" fill="none" stroke="${c.dark}" stroke-width="16" stroke-linecap="round"/>` +
    `<rect x="-118" y="8" width="52" height="92" rx="24" fill="${c.a}"/><rect x="66" y="8" width="52" height="92" rx="24" fill="${c.a}"/>` +
    `<rect x="-72" y="20" width="16" height="68" rx="8" fill="${c.dark}"/><rect x="56" y="20" width="16" height="68" rx="8" fill="${c.dark}"/>` +
    `<circle cx="-92" cy="54" r="12" fill="${c.light}"/><circle cx="92" cy="54" r="12" fill="${c.light}"/>`,

  speaker: (_r, c) =>
    `<rect x="-82" y="-108" width="164" height="214" rx="14" fill="#1f1f22" stroke="${c.a}" stroke-width="4"/>` +
    `<circle cy="-58" r="26" fill="#333"/><circle cy="-58" r="11" fill="${c.light}"/>` +
    `<circle cy="34" r="58" fill="#333"/><circle cy="34" r="42" fill="#222" stroke="${c.a}" stroke-width="3"/><circle cy="34" r="15" fill="${c.a}"/>`,

  disc: (_r, c) =>
    '<circle r="100" fill="url(#d)"/><circle r="100" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="2"/>' +
    '<circle r="66" fill="none" stroke="#fff" stroke-opacity=".25" stroke-width="1.5"/>' +
    `<circle r="32" fill="${c.dark}"/><path d="M-9-14l26 14-26 14z" fill="#fff"/>` +
    [34, 52, 70]
      .map(
        (r) =>
          `<path d="${arc(92, -78, r, -60, 30)}" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"/>`,
      )
      .join(''),
};

/** Soft geometric shapes behind the drawing. */
function backdrop(r: Rng, c: Palette): string {
  const shapes: string[] = [];
  for (let i = 0; i < 5; i++) {
    const x = between(r, 0, 400);
    const y = between(r, 0, 300);
    const size = between(r, 24, 110);
    const opacity = (0.06 + r() * 0.1).toFixed(2);
    const kind = between(r, 0, 3);
    if (kind === 0)
      shapes.push(`<circle cx="${x}" cy="${y}" r="${size}" fill="#fff" fill-opacity="${opacity}"/>`);
    else if (kind === 1)
      shapes.push(
        `<circle cx="${x}" cy="${y}" r="${size}" fill="none" stroke="${c.light}" stroke-opacity="${opacity}" stroke-width="10"/>`,
      );
    else if (kind === 2)
      shapes.push(
        `<rect x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}" fill="#fff" fill-opacity="${opacity}" transform="rotate(${between(r, 0, 90)} ${x} ${y})"/>`,
      );
    else
      shapes.push(
        `<polygon points="${x},${y - size} ${x + size},${y + size} ${x - size},${y + size}" fill="${c.b}" fill-opacity="${opacity}"/>`,
      );
  }
  return shapes.join('');
}

/** Splits a title into at most two lines of about `width` characters, with an ellipsis if cut. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > 2) lines[1] = `${(lines[1] ?? '').slice(0, width - 1)}…`;
  return lines.slice(0, 2).map((l) => (l.length > width ? `${l.slice(0, width - 1)}…` : l));
}

export function productSvg(art: ProductArt): string {
  const r = mulberry32(art.seed);
  const hue = r() * 360;
  const accentHue = hue + 150 + r() * 60;
  const c: Palette = {
    a: hsl(accentHue, 80, 58),
    b: hsl(hue + 30, 70, 62),
    light: hsl(accentHue + 40, 90, 82),
    dark: hsl(hue, 55, 18),
    hue,
  };
  const angle = between(r, 0, 3);
  const [x2, y2] = [
    [1, 1],
    [0, 1],
    [1, 0],
    [1, 0.5],
  ][angle] ?? [1, 1];
  const defs =
    `<linearGradient id="g" x2="${x2}" y2="${y2}"><stop stop-color="${hsl(hue, 65, 40)}"/><stop offset="1" stop-color="${hsl(hue + 50, 70, 20)}"/></linearGradient>` +
    (art.motif === 'camera'
      ? `<radialGradient id="l"><stop stop-color="${c.a}"/><stop offset="1" stop-color="#000"/></radialGradient>`
      : '') +
    (art.motif === 'disc'
      ? `<radialGradient id="d"><stop offset=".3" stop-color="${c.light}"/><stop offset=".55" stop-color="${c.a}"/><stop offset=".8" stop-color="${hsl(hue + 90, 80, 70)}"/><stop offset="1" stop-color="${c.b}"/></radialGradient>`
      : '');
  const lines = wrap(art.title, 24);
  const text = lines
    .map(
      (line, i) =>
        `<text x="200" y="${lines.length === 1 ? 362 : 350 + i * 28}" text-anchor="middle" font-size="${lines.length === 1 ? 25 : 22}" font-weight="700" fill="#fff">${escapeXml(line)}</text>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400"><defs>${defs}</defs>` +
    `<rect width="400" height="400" fill="url(#g)"/>${backdrop(r, c)}` +
    `<g transform="translate(200 168)">${MOTIFS[art.motif](r, c)}</g>` +
    `<rect y="296" width="400" height="104" fill="#000" fill-opacity=".4"/><rect y="296" width="400" height="4" fill="${c.a}"/>` +
    `<g font-family="${FONT}"><text x="200" y="${lines.length === 1 ? 330 : 322}" text-anchor="middle" font-size="12" letter-spacing="2" fill="${c.light}">${escapeXml(art.label.toUpperCase())}</text>${text}</g></svg>`
  );
}

function initials(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.length > 1 ? `${words[0]?.[0]}${words[1]?.[0]}` : (words[0]?.slice(0, 2) ?? '?');
  return letters.toUpperCase();
}

export function avatarSvg(art: AvatarArt): string {
  const r = mulberry32(hashString(art.handle));
  const hue = r() * 360;
  const dots = Array.from(
    { length: 3 },
    () =>
      `<circle cx="${between(r, 10, 118)}" cy="${between(r, 10, 118)}" r="${between(r, 10, 30)}" fill="#fff" fill-opacity=".12"/>`,
  ).join('');
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128" width="128" height="128">' +
    `<defs><linearGradient id="g" x2="1" y2="1"><stop stop-color="${hsl(hue, 70, 58)}"/><stop offset="1" stop-color="${hsl(hue + 45, 70, 36)}"/></linearGradient>` +
    '<clipPath id="c"><circle cx="64" cy="64" r="64"/></clipPath></defs>' +
    `<g clip-path="url(#c)"><rect width="128" height="128" fill="url(#g)"/>${dots}</g>` +
    '<circle cx="64" cy="64" r="59" fill="none" stroke="#fff" stroke-opacity=".3" stroke-width="2"/>' +
    `<text x="64" y="64" dy=".35em" text-anchor="middle" font-family="${FONT}" font-size="48" font-weight="700" fill="#fff">${escapeXml(initials(art.name))}</text></svg>`
  );
}

export interface SeedImagesResult {
  written: number;
  existing: number;
}

/** Writes the files that are missing; existing files are left alone, so this is cheap to repeat. */
export function ensureSeedImages(
  dataDir: string,
  art: { products: readonly ProductArt[]; avatars: readonly AvatarArt[] },
): SeedImagesResult {
  const result: SeedImagesResult = { written: 0, existing: 0 };
  const write = (folder: string, files: Array<[name: string, render: () => string]>) => {
    const dir = path.join(dataDir, 'media', 'seed', folder);
    mkdirSync(dir, { recursive: true });
    const present = new Set(readdirSync(dir));
    for (const [name, render] of files) {
      if (present.has(name)) {
        result.existing++;
        continue;
      }
      // Write then rename, so a reader (or a second server starting) never sees half a file.
      const target = path.join(dir, name);
      const temporary = `${target}.${process.pid}.tmp`;
      writeFileSync(temporary, render());
      renameSync(temporary, target);
      result.written++;
    }
  };
  write(
    'products',
    art.products.map((p) => [`${p.n}.svg`, () => productSvg(p)]),
  );
  write(
    'avatars',
    art.avatars.map((a) => [`${a.handle}.svg`, () => avatarSvg(a)]),
  );
  return result;
}
