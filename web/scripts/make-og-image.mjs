#!/usr/bin/env node
/**
 * Draws the 1200x630 link-preview picture (og:image, see contract/src/seo.ts) from our own SVG
 * and rasterises it with sharp into public/og-image.png. Runs before `vite build`: the PNG is made
 * here at build time and git-ignored, not shipped by the repository. Keeps an existing PNG (an
 * earlier build's); pass --force to redraw after changing the drawing. Without sharp no PNG is
 * made and pages have no og:image picture. Never fails the build.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));
const output = path.join(publicDir, 'og-image.png');
const WIDTH = 1200;
const HEIGHT = 630;
const FONT = 'DejaVu Sans, Liberation Sans, sans-serif';

export function ogImageSvg() {
  const rings = [150, 118, 86]
    .map((r) => `<circle r="${r}" fill="none" stroke="#000" stroke-opacity="0.18" stroke-width="3"/>`)
    .join('');
  // Reactions floating up from the disc, as on the landing page.
  const bubbles = [
    [468, 170, 18, 0.75],
    [494, 116, 15, 0.55],
    [520, 62, 12, 0.35],
  ]
    .map(
      ([cx, cy, r, opacity]) =>
        `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#ec4899" fill-opacity="${opacity}"/>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2e1065"/><stop offset="0.55" stop-color="#130a1f"/><stop offset="1" stop-color="#09090b"/></linearGradient>
    <linearGradient id="disc" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#a855f7"/><stop offset="0.55" stop-color="#ec4899"/><stop offset="1" stop-color="#f59e0b"/></linearGradient>
    <linearGradient id="mark" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#a855f7"/><stop offset="1" stop-color="#ec4899"/></linearGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  <g transform="translate(300 330)">
    <circle r="205" fill="none" stroke="#f0abfc" stroke-opacity="0.25" stroke-width="4"/>
    <circle r="190" fill="#0b0b10"/>
    <g transform="rotate(-18)">
      <circle r="180" fill="url(#disc)"/>
      ${rings}
      <text y="-112" text-anchor="middle" fill="#fff" font-family="${FONT}" font-weight="bold" font-size="26" letter-spacing="4">STREAM DISC</text>
    </g>
    <rect x="-46" y="-46" width="92" height="92" rx="12" fill="#0b0b10"/>
    <rect x="-36" y="-36" width="28" height="28" rx="5" fill="#fff"/><rect x="8" y="-36" width="28" height="28" rx="5" fill="#fff"/><rect x="-36" y="8" width="28" height="28" rx="5" fill="#fff"/>
    <rect x="12" y="12" width="10" height="10" fill="#fff"/><rect x="25" y="25" width="10" height="10" fill="#fff"/>
  </g>
  ${bubbles}
  <g transform="translate(580 150)">
    <rect width="72" height="72" rx="16" fill="url(#mark)"/>
    <path d="M28 21v30l24-15z" fill="#fff"/>
    <circle cx="62" cy="12" r="8" fill="#ef4444" stroke="#fff" stroke-width="3"/>
    <text x="92" y="52" fill="#fafafa" font-family="${FONT}" font-weight="bold" font-size="46">StreamShop</text>
  </g>
  <text x="580" y="320" fill="#fafafa" font-family="${FONT}" font-weight="bold" font-size="64">Shop live.</text>
  <text x="580" y="396" fill="#fafafa" font-family="${FONT}" font-weight="bold" font-size="64">Sell live.</text>
  <text x="580" y="462" fill="#d4d4d8" font-family="${FONT}" font-size="28">Live-stream shopping for creators,</text>
  <text x="580" y="500" fill="#d4d4d8" font-family="${FONT}" font-size="28">and the disc fans tap to play.</text>
  <rect x="580" y="540" width="120" height="36" rx="18" fill="#ef4444"/>
  <circle cx="602" cy="558" r="6" fill="#fff"/>
  <text x="616" y="566" fill="#fff" font-family="${FONT}" font-weight="bold" font-size="20">LIVE</text>
</svg>`;
}

async function main() {
  const force = process.argv.includes('--force');
  if (existsSync(output) && !force) {
    console.log('[og-image] public/og-image.png exists, keeping it (--force redraws)');
    return;
  }
  let sharp;
  try {
    sharp = (await import('sharp')).default;
  } catch {
    console.warn('[og-image] skipped: sharp is not installed, so pages have no og:image picture.');
    return;
  }
  try {
    mkdirSync(publicDir, { recursive: true });
    await sharp(Buffer.from(ogImageSvg())).resize(WIDTH, HEIGHT).png({ compressionLevel: 9 }).toFile(output);
    console.log(`[og-image] wrote public/og-image.png (${WIDTH}x${HEIGHT})`);
  } catch (error) {
    console.warn(`[og-image] skipped: ${error instanceof Error ? error.message : String(error)}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
