#!/usr/bin/env node
/**
 * Builds the landing page's feature video from the project's own drawings: SVG frames of the
 * Stream Disc story, rasterised with sharp and encoded to WebM (VP9) with the system ffmpeg.
 * Runs before `vite build`; skips when the clip exists; never fails the build: without sharp or
 * ffmpeg the page simply keeps showing the poster (public/video/feature-poster.svg).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const outDir = fileURLToPath(new URL('../public/video/', import.meta.url));
const output = path.join(outDir, 'feature.webm');
const WIDTH = 960;
const HEIGHT = 540;
const FPS = 12;
const SECONDS_PER_STEP = 2;

const STEPS = [
  ['Digital Content', 'Upload the album, film or art once'],
  ['Stream Disc', 'Bind it to a numbered NFC + QR disc'],
  ['NFC Transfer', 'Tap any phone to stream or buy'],
  ['Physical Access', 'Keep the collectible, unlock the extras'],
];

function frameSvg(stepIndex, t) {
  const [title, line] = STEPS[stepIndex];
  const angle = (stepIndex * SECONDS_PER_STEP + t) * 40;
  const progress = (stepIndex + t / SECONDS_PER_STEP) / STEPS.length;
  const pulse = 40 + 30 * ((t * 1.5) % 1);
  const dots = STEPS.map(
    (_, i) =>
      `<circle cx="${560 + i * 36}" cy="380" r="9" fill="${i === stepIndex ? '#ec4899' : '#3f3f46'}"/>`,
  ).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}"><title>Stream Disc: ${title}</title>
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e0b2e"/><stop offset="1" stop-color="#09090b"/></linearGradient>
    <linearGradient id="disc" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#a855f7"/><stop offset="0.55" stop-color="#ec4899"/><stop offset="1" stop-color="#f59e0b"/></linearGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  <g transform="translate(260 270)">
    ${stepIndex === 2 ? `<circle r="${150 + pulse}" fill="none" stroke="#f0abfc" stroke-opacity="${(1 - pulse / 70).toFixed(2)}" stroke-width="4"/>` : ''}
    <circle r="170" fill="#0b0b10"/>
    <g transform="rotate(${angle.toFixed(1)})">
      <circle r="162" fill="url(#disc)"/>
      <circle r="130" fill="none" stroke="#000" stroke-opacity="0.2" stroke-width="2"/>
      <circle r="100" fill="none" stroke="#000" stroke-opacity="0.2" stroke-width="2"/>
      <text y="-96" text-anchor="middle" fill="#fff" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="22" letter-spacing="3">STREAM DISC</text>
    </g>
    <rect x="-40" y="-40" width="80" height="80" rx="10" fill="#0b0b10"/>
    <rect x="-32" y="-32" width="24" height="24" rx="4" fill="#fff"/><rect x="8" y="-32" width="24" height="24" rx="4" fill="#fff"/><rect x="-32" y="8" width="24" height="24" rx="4" fill="#fff"/>
    <rect x="12" y="12" width="8" height="8" fill="#fff"/><rect x="22" y="22" width="8" height="8" fill="#fff"/>
  </g>
  <text x="540" y="180" fill="#a1a1aa" font-family="DejaVu Sans, sans-serif" font-size="22">STEP ${stepIndex + 1} OF 4</text>
  <text x="540" y="240" fill="#fafafa" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="48">${title}</text>
  <text x="540" y="292" fill="#d4d4d8" font-family="DejaVu Sans, sans-serif" font-size="24">${line}</text>
  ${dots}
  <rect x="0" y="${HEIGHT - 8}" width="${WIDTH}" height="8" fill="#27272a"/>
  <rect x="0" y="${HEIGHT - 8}" width="${(WIDTH * progress).toFixed(1)}" height="8" fill="#a855f7"/>
  <text x="${WIDTH - 40}" y="60" text-anchor="end" fill="#fafafa" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="24">StreamShop</text>
</svg>`;
}

function skip(reason) {
  console.warn(`[feature-video] skipped: ${reason}. The page shows the poster instead.`);
}

async function main() {
  if (existsSync(output)) {
    console.log('[feature-video] public/video/feature.webm exists, keeping it');
    return;
  }
  const ffmpeg = spawnSync('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore' });
  if (ffmpeg.error || ffmpeg.status !== 0) return skip('ffmpeg is not installed');
  let sharp;
  try {
    sharp = (await import('sharp')).default;
  } catch {
    return skip('sharp is not installed');
  }

  const work = mkdtempSync(path.join(tmpdir(), 'feature-video-'));
  try {
    let frame = 0;
    for (let step = 0; step < STEPS.length; step += 1) {
      for (let i = 0; i < FPS * SECONDS_PER_STEP; i += 1) {
        const file = path.join(work, `frame-${String(frame).padStart(4, '0')}.png`);
        await sharp(Buffer.from(frameSvg(step, i / FPS)))
          .png()
          .toFile(file);
        frame += 1;
      }
    }
    mkdirSync(outDir, { recursive: true });
    const partial = path.join(work, 'feature.webm');
    const encode = spawnSync(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-framerate',
        String(FPS),
        '-i',
        path.join(work, 'frame-%04d.png'),
        '-c:v',
        'libvpx-vp9',
        '-b:v',
        '0',
        '-crf',
        '40',
        '-row-mt',
        '1',
        '-deadline',
        'good',
        '-cpu-used',
        '4',
        '-pix_fmt',
        'yuv420p',
        '-an',
        partial,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (encode.status !== 0) return skip(`ffmpeg exited with ${encode.status}`);
    renameSync(partial, output);
    console.log(`[feature-video] wrote public/video/feature.webm (${frame} frames)`);
  } catch (error) {
    skip(error instanceof Error ? error.message : String(error));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// Also keep the poster in step with the first frame when it is missing.
const poster = path.join(outDir, 'feature-poster.svg');
if (!existsSync(poster)) {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(poster, frameSvg(0, 0.4));
}

await main();
