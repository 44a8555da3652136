import {
  changeEmailBodySchema,
  changePasswordBodySchema,
  profileBodySchema,
} from '@streamshop/contract/account.ts';
import type { User } from '@streamshop/contract/auth.ts';
import type { z } from 'zod';

/** Field name -> the reason shown under it. */
export type FieldErrors = Record<string, string>;

/** The first reason per field of a failed parse, keyed by the field's top-level name. */
function errorsOf(result: z.ZodSafeParseResult<unknown>): FieldErrors {
  const errors: FieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors;
}

export interface ProfileFormValues {
  firstName: string;
  lastName: string;
  businessName: string;
}

export const profileFormValues = (user: User): ProfileFormValues => ({
  firstName: user.firstName,
  lastName: user.lastName,
  businessName: user.businessName ?? '',
});

/** The same rules the server applies (the contract's schema), before anything is sent. */
export function validateProfile(values: ProfileFormValues): FieldErrors {
  return errorsOf(profileBodySchema.safeParse(values));
}

export interface PasswordFormValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function validatePasswordChange(values: PasswordFormValues): FieldErrors {
  const errors = errorsOf(
    changePasswordBodySchema.safeParse({
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
    }),
  );
  if (!errors.newPassword && values.newPassword !== values.confirmPassword) {
    errors.confirmPassword = 'The passwords do not match';
  }
  return errors;
}

export interface EmailFormValues {
  email: string;
  currentPassword: string;
}

export function validateEmailChange(values: EmailFormValues, currentEmail: string): FieldErrors {
  const parsed = changeEmailBodySchema.safeParse(values);
  const errors = errorsOf(parsed);
  if (parsed.success && parsed.data.email === currentEmail) errors.email = 'This is already your address';
  return errors;
}

/** The server's reasons read as sentences: 'is not your current password' -> 'This is not your current password'. */
export function sentence(reason: string): string {
  return /^(is|must|does)\b/.test(reason) ? `This ${reason}` : reason;
}
