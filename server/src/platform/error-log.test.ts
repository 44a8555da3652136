import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newAccount, type TestApp } from '../test/test-app.ts';

/** Every line the app logs, as written. */
const logLines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ logLevel: 'info' }, { logStream: { write: (line) => logLines.push(line) } });
  // A rule the sign-up insert breaks, so the query fails on the server with the account's values bound.
  await t.database.pool.query(
    `alter table users add constraint users_no_canary_check check (email not like '%leak-canary%')`,
  );
});
afterAll(() => t.close());

describe('logging a failed query', () => {
  it('logs the SQLSTATE, message and query text but none of the bound values', async () => {
    const account = newAccount({
      email: `leak-canary-${Date.now()}@example.com`,
      password: 'canary password 7f3a',
      firstName: 'Canaryfirstname',
    });
    const before = logLines.length;
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: account });

    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: 'Something went wrong on our side', code: 'INTERNAL' });
    const logged = logLines.slice(before).join('');
    const entry = logLines
      .slice(before)
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'unhandled error');
    for (const secret of [account.email, account.handle, account.firstName, '$argon2id$', 'Failing row']) {
      expect(logged).not.toContain(secret);
    }
    expect(logged).not.toMatch(/params/i);
    expect(entry?.err).toMatchObject({
      code: '23514',
      constraint: 'users_no_canary_check',
      message: expect.stringContaining('violates check constraint "users_no_canary_check"'),
      query: expect.stringMatching(/^insert into users as u \(handle, .*\$1/s),
    });
  });
});
