import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app.ts';

/**
 * Security review 3, item 3: opening a mailed link logged its token with the URL, so whoever read
 * the logs could reset the password. Every line the app logs is read after each such request.
 */
const logLines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp(
    {
      logLevel: 'info',
      // A provider that is configured (its callback route exists) and never reached.
      oidc: { google: { issuer: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 's' }, replit: undefined },
    },
    { logStream: { write: (line) => logLines.push(line) } },
  );
});
afterAll(() => t.close());

async function logsOf(url: string, method: 'GET' | 'POST' = 'GET'): Promise<string> {
  const before = logLines.length;
  await t.app.inject({ method, url });
  return logLines.slice(before).join('');
}

describe('the request log', () => {
  it.each([
    ['/reset-password?token=', 'token'],
    ['/verify-email?token=', 'token'],
    ['/confirm-email?token=', 'token'],
    ['/api/auth/google/callback?state=st4te-canary&code=', 'code'],
  ])('GET %s… logs the path, never the secret', async (prefix, name) => {
    const secret = `s3cret-canary-${name}-${Date.now()}`;
    const logged = await logsOf(`${prefix}${secret}`);
    expect(logged).toContain('"msg":"incoming request"');
    expect(logged).toContain(`${prefix.split('?')[0]}?`);
    expect(logged).toContain(`${name}=[redacted]`);
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain('st4te-canary');
  });

  it('keeps harmless parameters (a search) readable, and redacts one it does not know', async () => {
    const logged = await logsOf('/api/products?search=vinyl&page=2&apiKey=k3y-canary');
    expect(logged).toContain('/api/products?search=vinyl&page=2&apiKey=[redacted]');
    expect(logged).not.toContain('k3y-canary');
  });
});
