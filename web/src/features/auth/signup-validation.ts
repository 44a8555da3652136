import { EMAIL_PATTERN, normalizeHandle, type SignupBody } from '@streamshop/contract/auth.ts';
import { MIN_PASSWORD_LENGTH } from '@streamshop/contract/constants.ts';

export interface SignUpForm {
  firstName: string;
  lastName: string;
  email: string;
  handle: string;
  password: string;
  confirmPassword: string;
  businessName: string;
}

/** A check that failed: the spec's toast (title, description) and the field it is about. */
export interface ValidationProblem<Field extends string = string> {
  title: string;
  description: string;
  field: Field;
  /** The words shown next to the field; the toast's description when absent. */
  message?: string;
}

/** The labels of the sign-up form, for messages about a field in words. */
export const SIGN_UP_LABELS = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  handle: 'Handle',
  password: 'Password',
  confirmPassword: 'Confirm password',
  businessName: 'Business name',
} as const satisfies Record<keyof SignUpForm, string>;

/**
 * Spec section 5: the first failing check, in the spec's order, as the toast to show; null when
 * the form may be sent. Passwords are checked as typed (not trimmed) so that sign-in, which
 * sends the password unchanged, always matches what was chosen here.
 */
export function validateSignUp(form: SignUpForm): ValidationProblem<keyof SignUpForm> | null {
  if (!form.firstName.trim()) {
    return { field: 'firstName', title: 'First Name Required', description: 'Please enter your first name.' };
  }
  if (!form.lastName.trim()) {
    return { field: 'lastName', title: 'Last Name Required', description: 'Please enter your last name.' };
  }
  if (!normalizeHandle(form.handle)) {
    return {
      field: 'handle',
      title: 'Handle Required',
      description: 'Please enter a handle to create your account.',
    };
  }
  const email = form.email.trim();
  if (!email) {
    return { field: 'email', title: 'Email Required', description: 'Please enter your email address.' };
  }
  if (!EMAIL_PATTERN.test(email)) {
    return { field: 'email', title: 'Invalid Email', description: 'Please enter a valid email address.' };
  }
  if (!form.password.trim()) {
    return { field: 'password', title: 'Password Required', description: 'Please enter a password.' };
  }
  if (form.password.length < MIN_PASSWORD_LENGTH) {
    return {
      field: 'password',
      title: 'Password Too Short',
      description: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
    };
  }
  if (form.password !== form.confirmPassword) {
    return {
      field: 'confirmPassword',
      title: "Passwords Don't Match",
      description: 'Please make sure both password fields match.',
    };
  }
  return null;
}

/** The body for POST /api/auth/signup: trimmed values, handle without @, blank business omitted. */
export function toSignupBody(form: SignUpForm): SignupBody {
  const body: SignupBody = {
    firstName: form.firstName.trim(),
    lastName: form.lastName.trim(),
    handle: normalizeHandle(form.handle),
    email: form.email.trim(),
    password: form.password,
  };
  const businessName = form.businessName.trim();
  if (businessName) body.businessName = businessName;
  return body;
}
