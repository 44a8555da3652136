#!/usr/bin/env node
/**
 * Prerenders the marketing routes (contract PRERENDERED_PATHS) after the client build:
 *
 * 1. builds src/prerender.tsx for Node with Vite (SSR build into .tmp/prerender, same config and
 *    plugins as the client build, dependencies left in node_modules);
 * 2. renders each route with react-dom's prerender through react-router's static handler, the
 *    same route objects the browser uses (renderPage);
 * 3. writes it into the page shell dist/index.html (the client build's, with its hashed entry
 *    script and stylesheet), as dist/prerendered/<route>.html: the markup inside <div id="root"
 *    data-prerendered>, which tells the app to hydrate (src/app/start.tsx), the route's own
 *    stylesheet, and in data-modules the JS chunks the page needs, app and route (from
 *    dist/.vite/manifest.json): the entry (src/boot.ts) asks for them right after the first
 *    paint, all at once, so the content paints before any app code competes with it.
 *
 * It also gives the SPA shell itself (dist/index.html, every other route) <link rel=modulepreload>s
 * for the app's chunks, which the entry imports at once there.
 *
 * The server answers those routes with the file, after writing the route's head tags and its
 * public origin into it (server/src/modules/seo/index-html.ts). Fails the build on any error: a
 * page that rendered wrong must not ship.
 *
 * `--fragments=DIR` writes only each page's #root markup under DIR (no client build needed): the
 * web tests hydrate it (src/app/hydration.test.tsx).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const webRoot = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(webRoot, 'dist');
const fragmentsDir = process.argv.find((arg) => arg.startsWith('--fragments='))?.slice('--fragments='.length);
// Inside web/ so the bundle finds react & co. in node_modules; its own folder for a test's run.
const ssrOut = path.join(webRoot, '.tmp', fragmentsDir ? `prerender-${process.pid}` : 'prerender');

await build({
  root: webRoot,
  configFile: path.join(webRoot, 'vite.config.ts'),
  logLevel: 'warn',
  build: {
    ssr: 'src/prerender.tsx',
    outDir: ssrOut,
    emptyOutDir: true,
    manifest: false,
    copyPublicDir: false,
  },
});

const { renderPage, renderRoomShell, PRERENDERED_PATHS, prerenderedFile, PAGE_MODULES, ROOM_SHELL } =
  await import(pathToFileURL(path.join(ssrOut, 'prerender.js')).href);

if (fragmentsDir) {
  for (const route of PRERENDERED_PATHS) {
    const file = path.resolve(fragmentsDir, prerenderedFile(route));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, await renderPage(route));
  }
  rmSync(ssrOut, { recursive: true, force: true });
  process.exit(0);
}

const shellFile = path.join(dist, 'index.html');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const ROOT = '<div id="root"></div>';
const APP_PRELOADS = '<!-- app modules -->';
/** The client build's shell, without the app preloads an earlier run of this script added. */
const shell = readFileSync(shellFile, 'utf8').replace(
  new RegExp(`\\s*${APP_PRELOADS}[\\s\\S]*?${APP_PRELOADS}`),
  '',
);
if (!shell.includes(ROOT) || !shell.includes('</head>')) {
  throw new Error(`dist/index.html has no ${ROOT} or no </head>`);
}

/** A chunk and every chunk it imports statically (manifest keys). */
function staticClosure(key, seen = new Set()) {
  if (!manifest[key]) throw new Error(`${key} is not in the client build's manifest`);
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const next of manifest[key].imports ?? []) staticClosure(next, seen);
  return seen;
}
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('the client manifest has no entry');
/** What the shell loads by itself: the entry (boot.ts) and its stylesheet. */
const loadedByShell = staticClosure(entryKey);
const cssOfShell = new Set([...loadedByShell].flatMap((key) => manifest[key].css ?? []));
/** The app the entry imports: main.tsx and its static imports. */
const appChunks = [...staticClosure('src/main.tsx')].filter((key) => !loadedByShell.has(key));

/** JS files of some chunks (and of their static imports) that the shell does not load itself. */
function jsFiles(keys) {
  const closure = new Set(keys.flatMap((key) => [...staticClosure(key)]));
  return [...closure].filter((key) => !loadedByShell.has(key)).map((key) => `/${manifest[key].file}`);
}
/** The stylesheets of a chunk and its static imports that the shell does not link already. */
function cssFiles(key) {
  const css = [...staticClosure(key)].flatMap((k) => manifest[k].css ?? []);
  return [...new Set(css)].filter((file) => !cssOfShell.has(file)).map((file) => `/${file}`);
}

// The SPA shell: the entry imports the app at once, so its chunks load with the entry.
const appPreloads = jsFiles(appChunks).map((href) => `<link rel="modulepreload" crossorigin href="${href}">`);
writeFileSync(
  shellFile,
  shell.replace(
    '</head>',
    () => `  ${APP_PRELOADS}\n    ${appPreloads.join('\n    ')}\n    ${APP_PRELOADS}\n  </head>`,
  ),
);

rmSync(path.join(dist, 'prerendered'), { recursive: true, force: true });
for (const route of PRERENDERED_PATHS) {
  const markup = await renderPage(route);
  if (!/<h1[\s>]/.test(markup)) throw new Error(`${route} rendered without a headline`);
  if (markup.includes('data-testid="auth-loading"')) throw new Error(`${route} rendered the auth spinner`);
  const scripts = markup.match(/<script\b[^>]*>/g) ?? [];
  if (scripts.some((tag) => !tag.includes('type="application/ld+json"'))) {
    // The CSP (script-src 'self') would block an inline script.
    throw new Error(`${route} rendered an inline script: ${scripts.join(' ')}`);
  }
  const stylesheets = cssFiles(PAGE_MODULES[route]).map(
    (href) => `<link rel="stylesheet" crossorigin href="${href}">`,
  );
  const modules = jsFiles([...appChunks, PAGE_MODULES[route]]);
  const page = shell
    .replace('</head>', () => `  ${stylesheets.join('\n    ')}\n  </head>`)
    .replace(
      ROOT,
      () => `<div id="root" data-prerendered="" data-modules="${modules.join(' ')}">${markup}</div>`,
    );
  const file = path.join(dist, prerenderedFile(route));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, page);
  console.log(
    `prerendered ${route} -> dist/${prerenderedFile(route)} (${(markup.length / 1024).toFixed(1)} KiB)`,
  );
}

// The room's shell (/room/{name}), docs/decisions/0027: #root holds a preview of the room, as a
// signed-out viewer's first render draws it before the stream has loaded. The entry script plays
// the live video in the preview's slot (features/room/shell-player.ts, preloaded with the entry),
// then asks for the app's and the room page's chunks; the app replaces the preview (inert, not
// hydrated) and takes the playing video into the room's own place.
const ROOM_PAGE = 'src/features/room/room-page.tsx';
/** The shell player's chunk, which the entry imports (a chunk of its own, or a shared one named for it). */
const SHELL_PLAYER = (manifest[entryKey].dynamicImports ?? []).find(
  (key) => key === 'src/features/room/shell-player.ts' || manifest[key].name === 'shell-player',
);
if (!SHELL_PLAYER) throw new Error('the entry does not import the shell player');
const roomMarkup = await renderRoomShell();
if (!roomMarkup.includes('data-live-video-slot'))
  throw new Error('the room shell rendered without the live video slot');
if (roomMarkup.includes('data-testid="auth-loading"'))
  throw new Error('the room shell rendered the auth spinner');
if (/<script\b/.test(roomMarkup)) throw new Error('the room shell rendered an inline script');
// What the shell loads first: the shell player's chunks. The app's and the room page's are listed
// in data-modules, asked for once the video plays (src/boot.ts).
const shellPlayerFiles = jsFiles([SHELL_PLAYER]);
const roomPreloads = shellPlayerFiles.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`);
const roomModules = jsFiles([...appChunks, ROOM_PAGE]).filter((href) => !shellPlayerFiles.includes(href));
const roomStylesheets = cssFiles(ROOM_PAGE).map(
  (href) => `<link rel="stylesheet" crossorigin href="${href}">`,
);
mkdirSync(path.dirname(path.join(dist, ROOM_SHELL)), { recursive: true });
writeFileSync(
  path.join(dist, ROOM_SHELL),
  shell
    .replace('</head>', () => `  ${[...roomPreloads, ...roomStylesheets].join('\n    ')}\n  </head>`)
    .replace(
      ROOT,
      () =>
        `<div id="root" data-modules="${roomModules.join(' ')}"><div data-room-shell="" inert="">${roomMarkup}</div></div>`,
    ),
);
console.log(
  `room shell -> dist/${ROOM_SHELL} (${roomPreloads.length} preloads, ${roomModules.length} modules after the video, preview ${(roomMarkup.length / 1024).toFixed(1)} KiB)`,
);
