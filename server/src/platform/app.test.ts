import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app.ts';

// A stand-in for the built SPA so these tests do not depend on `npm run build`.
const webDist = mkdtempSync(path.join(tmpdir(), 'ss-web-'));
mkdirSync(path.join(webDist, 'assets'));
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
writeFileSync(path.join(webDist, 'assets', 'app-123.js'), 'console.log(1)');

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ bodyLimitBytes: 2048 }, { webDist });
});
afterAll(async () => {
  await t.close();
});

describe('API errors', () => {
  it('answers an unknown /api path with a JSON 404', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: '/api/nope?x=1' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        message: `No such endpoint: ${method} /api/nope`,
        code: 'NOT_FOUND',
      });
    }
  });

  it('answers malformed JSON with 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'content-type': 'application/json' },
      payload: '{"handle": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Malformed JSON body', code: 'INVALID_JSON' });
  });

  it('answers a body over the limit with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { handle: 'a'.repeat(4096), password: 'x' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a body that is not JSON with 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'content-type': 'text/plain' },
      payload: 'handle=a',
    });
    expect(response.statusCode).toBe(415);
  });

  it('answers a JSON array or a wrong type with a 400 naming the field', async () => {
    const array = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: [1, 2] });
    expect(array.statusCode).toBe(400);
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { handle: 42, password: ['x'] },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(Object.keys(wrongType.json().fields).sort()).toEqual(['handle', 'password']);
  });
});

describe('web app and headers', () => {
  it('serves the SPA for any non-API path so it can show its own 404', async () => {
    for (const url of ['/', '/explore', '/no/such/page?x=1']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets as immutable', async () => {
    const response = await t.app.inject({ url: '/assets/app-123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('sends a strict content security policy and a request id', async () => {
    const response = await t.app.inject({ url: '/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    // WebSockets only to the site itself, not to any ws: host.
    expect(csp).toMatch(/connect-src 'self' ws:\/\/localhost:3000(;| )/);
    expect(csp).not.toMatch(/ wss?:(;| )/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports readiness on /api/health', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      draining: false,
      down: [],
      database: 'ok',
      redis: 'not_configured',
      unhandledRejections: 0,
    });
  });
});
