import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  PAGE_META,
  PRERENDER_ORIGIN,
  PRERENDERED_PATHS,
  type PrerenderedPath,
  prerenderedFile,
} from '@streamshop/contract/seo.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { pickEncoding, withPublicOrigin } from './index-html.ts';

const PUBLIC_URL = 'https://shop.example.com';

/** The client build's page shell, as in index-html.test.ts. */
const shell = (root: string) => `<!doctype html>
<html lang="en" class="dark">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="StreamShop: shop live streams from independent artists, labels, creators and businesses."
    />
    <title>StreamShop</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
  </head>
  <body>
    ${root}
  </body>
</html>
`;
const INDEX_HTML = shell('<div id="root"></div>');
/** What web/scripts/prerender.mjs writes: the markup in the root, the origin as a placeholder. */
const prerendered = (route: PrerenderedPath) =>
  shell(
    `<div id="root" data-prerendered=""><main><h1>Headline of ${route}</h1>` +
      `<script type="application/ld+json">{"url":"${PRERENDER_ORIGIN}${route}"}</script></main></div>`,
  );

const webDist = mkdtempSync(path.join(tmpdir(), 'ss-web-prerender-'));
mkdirSync(path.join(webDist, 'assets'));
writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
// A script with the .br copy web/scripts/compress.mjs writes next to it.
const SCRIPT = `export const app = ${JSON.stringify('x'.repeat(4000))};\n`;
writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), SCRIPT);
writeFileSync(path.join(webDist, 'assets', 'app-abc123.js.br'), brotliCompressSync(SCRIPT));
// Every prerendered page but /team, to see the fallback when a file is missing.
for (const route of PRERENDERED_PATHS.filter((r) => r !== '/team')) {
  const file = path.join(webDist, prerenderedFile(route));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, prerendered(route));
}

let t: TestApp;
let off: TestApp;
beforeAll(async () => {
  [t, off] = await Promise.all([
    buildTestApp({ publicUrl: PUBLIC_URL }, { webDist }),
    buildTestApp({ publicUrl: PUBLIC_URL, prerender: false }, { webDist }),
  ]);
});
afterAll(async () => {
  await Promise.all([t.close(), off.close()]);
  rmSync(webDist, { recursive: true, force: true });
});

const count = (text: string, part: string) => text.split(part).length - 1;

describe('prerendered marketing pages', () => {
  it.each(PRERENDERED_PATHS.filter((r) => r !== '/team'))(
    'GET %s answers its build-time HTML with its own head, once',
    async (route) => {
      const response = await t.app.inject({ method: 'GET', url: route });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain(
        `<div id="root" data-prerendered=""><main><h1>Headline of ${route}</h1>`,
      );
      expect(count(response.body, '<title>')).toBe(1);
      expect(count(response.body, '<meta name="description"')).toBe(1);
      expect(count(response.body, '<link rel="canonical"')).toBe(1);
      expect(count(response.body, '<meta property="og:url"')).toBe(1);
      expect(response.body).toContain(`<link rel="canonical" href="${PUBLIC_URL}${route}" />`);
      expect(response.body).toContain(PAGE_META[route].description);
      // The public origin replaces the build's placeholder.
      expect(response.body).toContain(`{"url":"${PUBLIC_URL}${route}"}`);
      expect(response.body).not.toContain(PRERENDER_ORIGIN);
    },
  );

  it('keeps the query string out of the choice: /stream-disc?preorder=success is prerendered too', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/stream-disc?preorder=success' });
    expect(response.body).toContain('Headline of /stream-disc');
  });

  it('answers a prerendered route whose file is missing with the shell and its head', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/team' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).toContain(`<link rel="canonical" href="${PUBLIC_URL}/team" />`);
  });

  it('gives a signed-in visitor the shell at / (their home is the marketplace), with Vary: Cookie', async () => {
    const account = await signUp(t.app);
    const signedIn = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: account.cookie } });
    expect(signedIn.body).toContain('<div id="root"></div>');
    expect(signedIn.body).not.toContain('data-prerendered');
    expect(signedIn.headers.vary).toMatch(/cookie/i);
    // Other marketing pages are the same for everyone.
    const about = await t.app.inject({ method: 'GET', url: '/about', headers: { cookie: account.cookie } });
    expect(about.body).toContain('Headline of /about');
    // A stale cookie is just signed out.
    const stale = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: 'sid=gone' } });
    expect(stale.body).toContain('Headline of /');
  });

  it('answers other routes with the plain shell', async () => {
    for (const url of ['/explore', '/signin', '/no/such/page']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.body).not.toContain('data-prerendered');
    }
  });

  it('does not serve the files under their own names', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/prerendered/about.html' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX_HTML);
  });

  it('answers the shell everywhere with PRERENDER=false (the Lighthouse baseline)', async () => {
    const response = await off.app.inject({ method: 'GET', url: '/' });
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).toContain(`<link rel="canonical" href="${PUBLIC_URL}/" />`);
  });
});

describe('compression', () => {
  it('sends the build-time Brotli copy of an asset to a client that takes it, with Vary', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    const plain = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('does not serve the compressed copies under their own names', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js.br' });
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('compresses a prerendered page for a client that takes it', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/about', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('Headline of /about');
    const gzip = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toBe('accept-encoding, cookie');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('Headline of /');
  });

  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5', 'gzip'],
    ['deflate, identity', undefined],
    ['BR', 'br'],
  ])('pickEncoding(%j) is %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});

describe('withPublicOrigin', () => {
  it('writes the origin JSON-escaped, so it can never end the script element', () => {
    const html = `<script type="application/ld+json">{"url":"${PRERENDER_ORIGIN}/x"}</script>`;
    const origin = 'https://x.test/"</script><script>alert(1)';
    const out = withPublicOrigin(html, origin);
    expect(out).not.toContain('</script><script>');
    const json = out.slice(out.indexOf('>') + 1, out.lastIndexOf('</script>'));
    expect(JSON.parse(json)).toEqual({ url: `${origin}/x` });
  });
});

// The real build (npm test builds first): / answers the landing page's headline without JS.
const realDist = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));
describe.skipIf(!existsSync(path.join(realDist, prerenderedFile('/'))))('the built web app', () => {
  let real: TestApp;
  beforeAll(async () => {
    real = await buildTestApp({ publicUrl: PUBLIC_URL }, { webDist: realDist });
  });
  afterAll(async () => real?.close());

  it('GET / carries the prerendered landing page, headline included, in the initial HTML', async () => {
    const response = await real.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    const root = response.body.slice(response.body.indexOf('<div id="root"'));
    expect(root).toMatch(/^<div id="root" data-prerendered="" data-modules="[^"]+">/);
    expect(root).toMatch(/<h1[^>]*>Shop live\. Sell live\.<\/h1>/);
    expect(root).toContain('data-testid="nav-sign-in"');
    expect(root).not.toContain('data-testid="auth-loading"');
    expect(count(response.body, '<title>')).toBe(1);
    expect(response.body).toContain(`<title>${PAGE_META['/'].title}</title>`);
  });

  it('GET /stream-disc/music carries the offer URL on the public origin', async () => {
    const response = await real.app.inject({ method: 'GET', url: '/stream-disc/music' });
    const json = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(response.body)?.[1];
    expect(JSON.parse(json ?? '{}').offers.url).toBe(`${PUBLIC_URL}/stream-disc/music`);
    expect(readFileSync(path.join(realDist, prerenderedFile('/stream-disc/music')), 'utf8')).toContain(
      PRERENDER_ORIGIN,
    );
  });

  it('GET /room/{name} sends the room shell: a preview with the video slot, the shell player first, the room page after', async () => {
    const response = await real.app.inject({ method: 'GET', url: '/room/crate-digging' });
    expect(response.statusCode).toBe(200);
    // Preloaded with the entry: the shell player's chunks only (ADR 0027).
    const preloads = [
      ...response.body.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g),
    ].map((match) => match[1] ?? '');
    expect(preloads[0]).toMatch(/^assets\/shell-player-[\w-]+\.js$/);
    expect(preloads.some((file) => /room-page/.test(file))).toBe(false);
    // Asked for once the video plays: the app's and the room page's chunks.
    const modules = (/<div id="root" data-modules="([^"]+)">/.exec(response.body)?.[1] ?? '')
      .split(' ')
      .map((href) => href.slice(1));
    expect(modules.some((file) => /^assets\/room-page-[\w-]+\.js$/.test(file))).toBe(true);
    expect(modules.filter((file) => preloads.includes(file))).toEqual([]);
    for (const file of [...preloads, ...modules])
      expect(existsSync(path.join(realDist, file)), file).toBe(true);
    // The preview: inert, signed out, with the live video's empty place and no spinner.
    expect(response.body).toContain('<div data-room-shell="" inert="">');
    expect(count(response.body, 'data-live-video-slot=""')).toBe(1);
    expect(response.body).toContain('data-testid="nav-sign-in"');
    expect(response.body).not.toContain('data-testid="auth-loading"');
    expect(response.body).not.toContain('<video');
    // The shell's own entry is still there, once, and no other script.
    expect(count(response.body, '<script type="module"')).toBe(1);
    expect(count(response.body, '<script')).toBe(1);
  });
});
