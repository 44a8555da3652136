import { randomBytes } from 'node:crypto';

let counter = 0;
/** A valid sign-up body with a unique handle and email. */
export function newAccount(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const suffix = `${process.pid % 1000}_${counter}_${randomBytes(2).toString('hex')}`;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    handle: `ada_${suffix}`,
    email: `ada_${suffix}@example.com`,
    password: 'correct horse battery',
    ...overrides,
  };
}
