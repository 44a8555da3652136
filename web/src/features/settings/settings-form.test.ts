import { describe, expect, it } from 'vitest';
import { sentence, validateEmailChange, validatePasswordChange, validateProfile } from './settings-form.ts';

describe('settings form validation (the contract rules, in the browser)', () => {
  it('accepts a profile and refuses an empty or spoofed name, naming the field', () => {
    expect(validateProfile({ firstName: 'Ada', lastName: 'Lovelace', businessName: '' })).toEqual({});
    expect(validateProfile({ firstName: ' ', lastName: 'Lovelace', businessName: '' })).toEqual({
      firstName: 'First name is required',
    });
    expect(validateProfile({ firstName: 'Ada', lastName: 'Bob\u202Eevil', businessName: '' })).toEqual({
      lastName: 'Last name must not contain text-direction control characters',
    });
  });

  it('asks for the current password, the sign-up length and a matching confirmation', () => {
    expect(
      validatePasswordChange({ currentPassword: '', newPassword: 'short', confirmPassword: 'short' }),
    ).toEqual({
      currentPassword: 'Current password is required',
      newPassword: 'Password must be at least 8 characters long.',
    });
    expect(
      validatePasswordChange({
        currentPassword: 'old password',
        newPassword: 'a long new one',
        confirmPassword: 'a long new two',
      }),
    ).toEqual({ confirmPassword: 'The passwords do not match' });
    expect(
      validatePasswordChange({
        currentPassword: 'old password',
        newPassword: 'a long new one',
        confirmPassword: 'a long new one',
      }),
    ).toEqual({});
  });

  it('checks the new address and refuses the current one, whatever its case', () => {
    expect(validateEmailChange({ email: 'nope', currentPassword: 'x' }, 'ada@example.com')).toEqual({
      email: 'Please enter a valid email address.',
    });
    expect(
      validateEmailChange({ email: 'ADA@example.com', currentPassword: 'x' }, 'ada@example.com'),
    ).toEqual({
      email: 'This is already your address',
    });
    expect(validateEmailChange({ email: 'new@example.com', currentPassword: '' }, 'ada@example.com')).toEqual(
      {
        currentPassword: 'Current password is required',
      },
    );
  });

  it('turns the server’s reasons into sentences', () => {
    expect(sentence('is not your current password')).toBe('This is not your current password');
    expect(sentence('Password is required')).toBe('Password is required');
  });
});
