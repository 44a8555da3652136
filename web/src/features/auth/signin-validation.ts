import { normalizeHandle, type SigninBody } from '@streamshop/contract/auth.ts';
import type { ValidationProblem } from './signup-validation.ts';

export interface SignInForm {
  handle: string;
  password: string;
}

/** The labels of the sign-in form, for messages about a field in words. */
export const SIGN_IN_LABELS = { handle: 'Handle or email', password: 'Password' } as const;

/** Spec section 5: handle first, then password; null when the form may be sent. */
export function validateSignIn(form: SignInForm): ValidationProblem<keyof SignInForm> | null {
  if (!normalizeHandle(form.handle)) {
    return {
      field: 'handle',
      title: 'Handle Required',
      description: 'Please enter your handle to continue.',
      // The field takes the email too; the spec's toast keeps its words.
      message: 'Please enter your handle or email.',
    };
  }
  if (!form.password.trim()) {
    return {
      field: 'password',
      title: 'Password Required',
      description: 'Please enter your password to continue.',
    };
  }
  return null;
}

/** A leading @ and surrounding spaces are stripped from the handle (or email) before sending. */
export function toSigninBody(form: SignInForm): SigninBody {
  return { handle: normalizeHandle(form.handle), password: form.password };
}
