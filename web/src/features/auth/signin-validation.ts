import { normalizeHandle, type SigninBody } from '@streamshop/contract/auth.ts';
import type { ValidationProblem } from './signup-validation.ts';

export interface SignInForm {
  handle: string;
  password: string;
}

/** Spec section 5: handle first, then password; null when the form may be sent. */
export function validateSignIn(form: SignInForm): ValidationProblem | null {
  if (!normalizeHandle(form.handle)) {
    return { title: 'Handle Required', description: 'Please enter your handle to continue.' };
  }
  if (!form.password.trim()) {
    return { title: 'Password Required', description: 'Please enter your password to continue.' };
  }
  return null;
}

/** A leading @ and surrounding spaces are stripped from the handle before sending. */
export function toSigninBody(form: SignInForm): SigninBody {
  return { handle: normalizeHandle(form.handle), password: form.password };
}
