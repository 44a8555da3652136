import { mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Generated artwork for the demo data: product pictures and seller avatars as small SVG files,
 * drawn from SVG primitives and a seeded PRNG, so the same seed always gives the same picture.
 * Nothing is downloaded. Files live under `${dataDir}/media/seed/` and the app serves them at
 * `/media/seed/...`.
 */

import { escapeXml, FONT, hsl, MOTIFS, type Motif, type Palette } from './motifs.ts';
import { between, hashString, mulberry32, type Rng } from './random.ts';

export type { Motif } from './motifs.ts';
export { between, hashString, mulberry32, pick, type Rng } from './random.ts';

export const SEED_MEDIA_PREFIX = '/media/seed';

export function productImageUrl(n: number): string {
  return `${SEED_MEDIA_PREFIX}/products/${n}.svg`;
}

export function avatarUrl(handle: string): string {
  return `${SEED_MEDIA_PREFIX}/avatars/${handle}.svg`;
}

/** The drawings available for products; the seed picks one per category (or per item). */
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
