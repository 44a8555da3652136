import { describe, expect, it } from 'vitest';
import { toSigninBody, validateSignIn } from './signin-validation.ts';

describe('sign-in validation', () => {
  it('asks for the handle first', () => {
    expect(validateSignIn({ handle: ' @ ', password: '' })).toEqual({
      field: 'handle',
      title: 'Handle Required',
      description: 'Please enter your handle to continue.',
      message: 'Please enter your handle or email.',
    });
  });

  it('then for the password', () => {
    expect(validateSignIn({ handle: 'ana', password: '  ' })?.title).toBe('Password Required');
  });

  it('accepts a handle with a leading @', () => {
    expect(validateSignIn({ handle: '@ana', password: 'secret123' })).toBeNull();
  });

  it('accepts an email address, sent lower-case', () => {
    expect(validateSignIn({ handle: ' Ana@Example.com ', password: 'secret123' })).toBeNull();
    expect(toSigninBody({ handle: ' Ana@Example.com ', password: 'secret123' }).handle).toBe(
      'ana@example.com',
    );
  });

  it('strips a leading @ and surrounding spaces from the handle only', () => {
    expect(toSigninBody({ handle: '  @ana ', password: ' pass word ' })).toEqual({
      handle: 'ana',
      password: ' pass word ',
    });
  });
});
