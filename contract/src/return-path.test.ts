import { describe, expect, it } from 'vitest';
import { RETURN_PATH_MAX_LENGTH, safeReturnPath, withReturnPath } from './return-path.ts';

describe('safeReturnPath', () => {
  it.each([
    '/checkout/6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab',
    '/dashboard?tab=orders',
    '/products/abc#reviews',
    '/s/ana',
    '/',
    '/search?q=50%25%20off',
  ])('keeps the same-site path %s', (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  it.each([
    ['another host, protocol-relative', '//evil.com'],
    ['another host, protocol-relative with a path', '//evil.com/checkout/1'],
    ['a backslash read as a slash', '/\\evil.com'],
    ['backslashes only', '\\\\evil.com'],
    ['a backslash later on', '/checkout\\..\\..\\evil'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a javascript: URL with a leading slash trick', 'javascript://%0aalert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['an absolute https URL', 'https://evil.com/checkout/1'],
    ['an absolute URL of this site', 'http://localhost:3000/dashboard'],
    ['a relative path', 'checkout/1'],
    ['a percent-encoded double slash', '/%2F%2Fevil.com'],
    ['a percent-encoded double slash, no leading slash', '%2F%2Fevil.com'],
    ['a percent-encoded backslash', '/%5Cevil.com'],
    ['a percent-encoded tab', '/%09/evil.com'],
    ['malformed percent-encoding', '/checkout/%E0%A4%A'],
    ['a tab between the slashes', '/\t/evil.com'],
    ['a newline between the slashes', '/\n/evil.com'],
    ['a carriage return', '/\r/evil.com'],
    ['a NUL', '/checkout/1\u0000'],
    ['a C1 control', '/checkout/\u0085x'],
    ['a leading space', ' /dashboard'],
    ['the empty string', ''],
  ])('refuses %s', (_what, value) => {
    expect(safeReturnPath(value)).toBeUndefined();
  });

  it('refuses a missing value and one longer than the limit', () => {
    expect(safeReturnPath(null)).toBeUndefined();
    expect(safeReturnPath(undefined)).toBeUndefined();
    const long = `/${'a'.repeat(RETURN_PATH_MAX_LENGTH)}`;
    expect(safeReturnPath(long)).toBeUndefined();
    expect(safeReturnPath(long.slice(0, RETURN_PATH_MAX_LENGTH))).toBe(long.slice(0, RETURN_PATH_MAX_LENGTH));
  });
});

describe('withReturnPath', () => {
  it('adds an acceptable destination, encoded, and drops any other', () => {
    expect(withReturnPath('/signup', '/checkout/1?x=1')).toBe('/signup?next=%2Fcheckout%2F1%3Fx%3D1');
    expect(new URLSearchParams(withReturnPath('/signin', '/checkout/1').split('?')[1]).get('next')).toBe(
      '/checkout/1',
    );
    expect(withReturnPath('/signup', '//evil.com')).toBe('/signup');
    expect(withReturnPath('/signin', null)).toBe('/signin');
  });
});
