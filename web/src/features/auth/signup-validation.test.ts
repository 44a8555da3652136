import { describe, expect, it } from 'vitest';
import { type SignUpForm, toSignupBody, validateSignUp } from './signup-validation.ts';

const valid: SignUpForm = {
  firstName: 'Ana',
  lastName: 'Lima',
  email: 'ana@example.com',
  handle: '@ana_live',
  password: 'correct horse',
  confirmPassword: 'correct horse',
  businessName: '',
};

const titleFor = (changes: Partial<SignUpForm>) => validateSignUp({ ...valid, ...changes })?.title ?? null;

describe('sign-up validation', () => {
  it('accepts a complete form', () => {
    expect(validateSignUp(valid)).toBeNull();
  });

  it('reports problems in the spec order, one at a time', () => {
    let form: SignUpForm = {
      firstName: ' ',
      lastName: '',
      email: '',
      handle: '@ ',
      password: '',
      confirmPassword: 'x',
      businessName: '',
    };
    const seen: string[] = [];
    const fixes: Partial<SignUpForm>[] = [
      { firstName: 'Ana' },
      { lastName: 'Lima' },
      { handle: 'ana' },
      { email: 'not-an-email' },
      { email: 'ana@example.com' },
      { password: 'short' },
      { password: 'long enough' },
      { confirmPassword: 'long enough' },
    ];
    for (const fix of fixes) {
      const problem = validateSignUp(form);
      if (problem) seen.push(problem.title);
      form = { ...form, ...fix };
    }
    expect(seen).toEqual([
      'First Name Required',
      'Last Name Required',
      'Handle Required',
      'Email Required',
      'Invalid Email',
      'Password Required',
      'Password Too Short',
      "Passwords Don't Match",
    ]);
    expect(validateSignUp(form)).toBeNull();
  });

  it('uses the spec descriptions', () => {
    expect(validateSignUp({ ...valid, handle: '' })?.description).toBe(
      'Please enter a handle to create your account.',
    );
    expect(validateSignUp({ ...valid, email: 'a b@c.d' })?.description).toBe(
      'Please enter a valid email address.',
    );
    expect(validateSignUp({ ...valid, password: 'seven77', confirmPassword: 'seven77' })).toEqual({
      field: 'password',
      title: 'Password Too Short',
      description: 'Password must be at least 8 characters long.',
    });
    expect(validateSignUp({ ...valid, confirmPassword: 'different' })?.description).toBe(
      'Please make sure both password fields match.',
    );
  });

  it('names the field each problem is about, for the message beside it', () => {
    const fieldFor = (changes: Partial<SignUpForm>) => validateSignUp({ ...valid, ...changes })?.field;
    expect(fieldFor({ firstName: ' ' })).toBe('firstName');
    expect(fieldFor({ lastName: '' })).toBe('lastName');
    expect(fieldFor({ handle: '@' })).toBe('handle');
    expect(fieldFor({ email: 'nope' })).toBe('email');
    expect(fieldFor({ password: 'short', confirmPassword: 'short' })).toBe('password');
    expect(fieldFor({ confirmPassword: 'other thing' })).toBe('confirmPassword');
  });

  it('checks the email pattern: text, @, text, dot, text, no spaces', () => {
    expect(titleFor({ email: 'ana@example' })).toBe('Invalid Email');
    expect(titleFor({ email: 'ana example@x.io' })).toBe('Invalid Email');
    expect(titleFor({ email: '  ana@example.com  ' })).toBeNull();
  });

  it('treats a handle of only @ and spaces as missing', () => {
    expect(titleFor({ handle: ' @ ' })).toBe('Handle Required');
  });
});

describe('sign-up body', () => {
  it('trims values, strips the @ from the handle and omits a blank business name', () => {
    const body = toSignupBody({
      ...valid,
      firstName: ' Ana ',
      lastName: ' Lima ',
      email: ' ana@example.com ',
      handle: ' @Ana_Live ',
      businessName: '   ',
    });
    expect(body).toEqual({
      firstName: 'Ana',
      lastName: 'Lima',
      email: 'ana@example.com',
      handle: 'ana_live',
      password: 'correct horse',
    });
    expect('businessName' in body).toBe(false);
  });

  it('keeps a business name when given', () => {
    expect(toSignupBody({ ...valid, businessName: ' Ana Records ' }).businessName).toBe('Ana Records');
  });
});
