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

export interface ValidationProblem {
  title: string;
  description: string;
}

/**
 * Spec section 5: the first failing check, in the spec's order, as the toast to show; null when
 * the form may be sent. Passwords are checked as typed (not trimmed) so that sign-in, which
 * sends the password unchanged, always matches what was chosen here.
 */
export function validateSignUp(form: SignUpForm): ValidationProblem | null {
  if (!form.firstName.trim()) {
    return { title: 'First Name Required', description: 'Please enter your first name.' };
  }
  if (!form.lastName.trim()) {
    return { title: 'Last Name Required', description: 'Please enter your last name.' };
  }
  if (!normalizeHandle(form.handle)) {
    return {
      title: 'Handle Required',
      description: 'Please enter a handle to create your account.',
    };
  }
  const email = form.email.trim();
  if (!email) {
    return { title: 'Email Required', description: 'Please enter your email address.' };
  }
  if (!EMAIL_PATTERN.test(email)) {
    return { title: 'Invalid Email', description: 'Please enter a valid email address.' };
  }
  if (!form.password.trim()) {
    return { title: 'Password Required', description: 'Please enter a password.' };
  }
  if (form.password.length < MIN_PASSWORD_LENGTH) {
    return {
      title: 'Password Too Short',
      description: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
    };
  }
  if (form.password !== form.confirmPassword) {
    return {
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
