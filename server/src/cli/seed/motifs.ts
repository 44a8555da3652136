/** The drawings of the demo's product pictures (one per motif) and the SVG helpers they share. */

import { between, pick, type Rng } from './random.ts';

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

export interface Palette {
  /** Main accent, secondary accent, light and dark tones of the drawing. */
  a: string;
  b: string;
  light: string;
  dark: string;
  hue: number;
}

export const FONT = 'Helvetica,Arial,sans-serif';

export const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h) % 360},${s}%,${l}%)`;

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A star polygon's points around (cx, cy). */
export function star(cx: number, cy: number, outer: number, inner: number, tips: number): string {
  const points: string[] = [];
  for (let i = 0; i < tips * 2; i++) {
    const radius = i % 2 === 0 ? outer : inner;
    const angle = (Math.PI * i) / tips - Math.PI / 2;
    points.push(`${Math.round(cx + radius * Math.cos(angle))},${Math.round(cy + radius * Math.sin(angle))}`);
  }
  return points.join(' ');
}

/** An arc path of radius r around (cx, cy) from angle a0 to a1 (degrees, clockwise from +x). */
export function arc(cx: number, cy: number, r: number, a0: number, a1: number): string {
  const rad = Math.PI / 180;
  const x0 = Math.round(cx + r * Math.cos(a0 * rad));
  const y0 = Math.round(cy + r * Math.sin(a0 * rad));
  const x1 = Math.round(cx + r * Math.cos(a1 * rad));
  const y1 = Math.round(cy + r * Math.sin(a1 * rad));
  return `M${x0} ${y0}A${r} ${r} 0 0 1 ${x1} ${y1}`;
}

export type Draw = (r: Rng, c: Palette) => string;

/** Each drawing is centred on (0, 0) in a box of about 250 x 220 units. */
export const MOTIFS: Record<Motif, Draw> = {
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
