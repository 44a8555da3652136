import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app.ts';
import { API_DOCS_PREFIX, OPENAPI_PATH } from './openapi.ts';

const API_MD = new URL('../../../docs/api.md', import.meta.url);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const METHOD = `(?:${METHODS.join('|')})`;

/** `:id`, `<room>` and `{id}` alike as OpenAPI writes them: `{id}`. */
function normalisePath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)/g, '{$1}').replace(/<([A-Za-z_]\w*)>/g, '{$1}');
}

/** `/api/auth/{google,replit}` -> both paths (a comma inside braces is a choice, not a parameter). */
function expandChoices(path: string): string[] {
  const [braces, options] = /\{([^{}]*,[^{}]*)\}/.exec(path) ?? [];
  if (!braces || !options) return [path];
  return options.split(',').flatMap((option) => expandChoices(path.replace(braces, option.trim())));
}

/**
 * The routes one entry names: `GET /api/orders?role=…`, ``GET `/media/hls/<room>/<file>` ``,
 * `DELETE …/lineup/:productId` (the path before `/lineup` is the previous entry's), and
 * `GET /api/auth/{google,replit} (+ /callback)` (four routes).
 */
function routesOf(
  entry: string,
  previousPath: string | undefined,
): { routes: string[]; path: string } | undefined {
  const match = new RegExp(`^(${METHOD})\\s+\`?([^\\s\`]+)\`?(.*)$`).exec(entry.trim());
  if (!match) return undefined;
  const [, method, written = '', rest = ''] = match;
  let path = written.split('?')[0] ?? '';
  if (path.startsWith('…')) {
    const tail = path.slice(1);
    const firstPart = `/${tail.split('/')[1]}`;
    const at = previousPath?.lastIndexOf(firstPart) ?? -1;
    if (!previousPath || at === -1)
      throw new Error(`api.md: cannot resolve "${entry}" after ${previousPath}`);
    path = previousPath.slice(0, at) + tail;
  }
  const suffixes = ['', ...[...rest.matchAll(/\(\+ (\/[^)\s]+)\)/g)].map((m) => m[1])];
  const routes = expandChoices(path).flatMap((one) =>
    suffixes.map((suffix) => `${method} ${normalisePath(one + suffix)}`),
  );
  return { routes, path };
}

/** The entries of one place that names routes: `PUT /api/products/:id, DELETE /api/products/:id`. */
function routesOfEntries(text: string): string[] {
  const routes: string[] = [];
  let previousPath: string | undefined;
  for (const entry of text.split(new RegExp(`,\\s*(?=${METHOD}\\s)`))) {
    const found = routesOf(entry, previousPath);
    if (!found) continue;
    routes.push(...found.routes);
    previousPath = found.path;
  }
  return routes;
}

/**
 * The routes docs/api.md documents, by its conventions: the first cell of a table row (one route
 * or several, separated by commas; a body, query or note may follow each), and in prose a code
 * span that begins with a method (`` `POST /api/rooms {title, …}` ``). A route only mentioned in
 * another cell of a row is not thereby documented. WebSockets and RTMP are not HTTP routes.
 */
export function documentedRoutes(markdown: string): Set<string> {
  const routes = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) {
      const firstCell = line.slice(1).split(/(?<!\\)\|/)[0] ?? '';
      for (const route of routesOfEntries(firstCell.replaceAll('\\|', '|'))) routes.add(route);
    } else {
      for (const [, span = ''] of line.matchAll(new RegExp(`\`(${METHOD} /[^\`]*)\``, 'g'))) {
        for (const route of routesOfEntries(span)) routes.add(route);
      }
    }
  }
  return routes;
}

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { security?: unknown[]; responses?: unknown }>>;
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
}

let t: TestApp;
let document: OpenApiDocument;
beforeAll(async () => {
  t = await buildTestApp();
  const response = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(response.statusCode).toBe(200);
  document = response.json();
});
afterAll(async () => {
  await t.close();
});

function routesInDocument(): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: 'StreamShop API', version: expect.any(String) });
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('describes the routes from their zod schemas, with the session cookie on the signed-in ones', () => {
    const signIn = document.paths['/api/auth/signin']?.post;
    expect(JSON.stringify(signIn)).toContain('"handle"');
    expect(signIn?.security).toBeUndefined();
    expect(document.paths['/api/account/sessions/{id}']?.delete?.security).toEqual([{ session: [] }]);
    expect(document.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'sid',
    });
  });

  it('leaves out the pages, WebSockets and itself', () => {
    const routes = routesInDocument();
    expect(routes.filter((route) => !/^[A-Z]+ \/(api|media)\//.test(route))).toEqual([]);
    expect(routes).not.toContain('GET /ws');
    expect(routes.filter((route) => route.includes(OPENAPI_PATH) || route.includes(API_DOCS_PREFIX))).toEqual(
      [],
    );
  });

  it('has the same routes as docs/api.md', () => {
    const documented = documentedRoutes(readFileSync(API_MD, 'utf8'));
    const inDocument = new Set(routesInDocument());
    const missingFromApiMd = [...inDocument].filter((route) => !documented.has(route)).sort();
    const notARoute = [...documented].filter((route) => !inDocument.has(route)).sort();
    expect({ missingFromApiMd, notARoute }).toEqual({ missingFromApiMd: [], notARoute: [] });
  });
});

describe('the API docs page', () => {
  it('is served from this site, its scripts from the npm package', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${API_DOCS_PREFIX}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^(https?:)?\/\//);
      const script = await t.app.inject({
        method: 'GET',
        url: new URL(src, `http://x${API_DOCS_PREFIX}/`).pathname,
      });
      expect(script.statusCode, src).toBe(200);
    }
  });
});

describe('documentedRoutes', () => {
  it('reads the conventions of docs/api.md', () => {
    const markdown = [
      '| Method, path | Who | Answer |',
      '| --- | --- | --- |',
      '| GET /api/explore `?search&category` | anyone | … |',
      '| PUT /api/products/:id, DELETE /api/products/:id | the seller | … |',
      '| POST /api/streams/:name/pins `{productId}`, DELETE …/pins/:productId | the seller | RoomShop |',
      '| GET /api/orders?role=seller\\|buyer&status= | signed in | … GET /api/not-this-one |',
      '| GET /api/auth/{google,replit} (+ /callback) | browser | … |',
      '| GET `/media/hls/<room>/<file>` | anyone | … |',
      '| WebSocket `/ws/media?room=` | anyone | … |',
      '| (product body) | | … |',
      '`POST /api/rooms {title}` (signed in) creates a stream.',
    ].join('\n');
    expect([...documentedRoutes(markdown)].sort()).toEqual([
      'DELETE /api/products/{id}',
      'DELETE /api/streams/{name}/pins/{productId}',
      'GET /api/auth/google',
      'GET /api/auth/google/callback',
      'GET /api/auth/replit',
      'GET /api/auth/replit/callback',
      'GET /api/explore',
      'GET /api/orders',
      'GET /media/hls/{room}/{file}',
      'POST /api/rooms',
      'POST /api/streams/{name}/pins',
      'PUT /api/products/{id}',
    ]);
  });
});
