#!/usr/bin/env node
/**
 * The last build step: writes a Brotli (.br) and a gzip (.gz) copy next to every text file of
 * dist/ (scripts, stylesheets, SVG, the page shell) that compresses well, so the server can send
 * them compressed without compressing on each request (@fastify/static `preCompressed`, see
 * server/src/app.ts). dist/prerendered/ is left out: the server writes the route's head and
 * origin into those pages per request and compresses the result itself.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'prerendered' && !entry.name.startsWith('.')) yield* files(full);
    } else if (COMPRESSIBLE.test(entry.name) && statSync(full).size >= MIN_BYTES) {
      yield full;
    }
  }
}

let before = 0;
let after = 0;
await Promise.all(
  [...files(dist)].map(async (file) => {
    const body = readFileSync(file);
    const [br, gzipped] = await Promise.all([
      brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gz(body, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    // Not worth a second file (and a content-encoding) when it saves little.
    if (br.length > body.length * 0.9) return;
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gzipped);
    before += body.length;
    after += br.length;
  }),
);
console.log(
  `compressed dist: ${(before / 1024).toFixed(0)} KiB -> ${(after / 1024).toFixed(0)} KiB with Brotli`,
);
