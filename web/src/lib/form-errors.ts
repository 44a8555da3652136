import { extractFieldErrors } from './api/client.ts';

/**
 * A form's errors shown next to its fields, in words: one message per field, keyed by the field's
 * name in the request body ('trackingNumber'), phrased with the label people see ('Tracking
 * number').
 */
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/**
 * A field's reason as a sentence about its label. The server's messages are mostly sentences
 * already ('Handle must be 3-30 characters…'); some are fragments ('is already taken') or start
 * with the body's field name ('trackingNumber is at least 4 characters', from older servers).
 */
export function phraseFieldError(field: string, label: string, reason: string): string {
  const text = reason.trim();
  if (!text) return `${label} is not valid`;
  if (text.startsWith(`${field} `)) return `${label}${text.slice(field.length)}`;
  if (/^[a-z]/.test(text)) return `${label} ${text}`;
  return text;
}

/** The first message for each field of `labels` among zod issues (a safeParse that failed). */
export function fieldErrorsFromIssues<Field extends string>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  labels: Record<Field, string>,
): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (!Object.hasOwn(labels, field)) continue;
    const key = field as Field;
    errors[key] ??= phraseFieldError(field, labels[key], issue.message);
  }
  return errors;
}

/**
 * A failed call's per-field reasons (a 400 or 409 with `fields`) for the fields of `labels`, in
 * words. Fields the form does not show are left out: the caller toasts the server's message.
 */
export function fieldErrorsFromServer<Field extends string>(
  error: unknown,
  labels: Record<Field, string>,
): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  for (const [field, reason] of Object.entries(extractFieldErrors(error))) {
    if (!Object.hasOwn(labels, field)) continue;
    const key = field as Field;
    errors[key] = phraseFieldError(field, labels[key], reason);
  }
  return errors;
}

/** The props that tie an input to its message: aria-invalid and aria-describedby. */
export function fieldErrorProps(errorId: string, message: string | undefined, hintId?: string) {
  const describedBy = [message ? errorId : undefined, hintId].filter(Boolean).join(' ');
  return {
    'aria-invalid': message ? (true as const) : undefined,
    'aria-describedby': describedBy || undefined,
  };
}

/**
 * Moves focus to the first control inside `form` (in page order) whose `name` has an error, so a
 * keyboard or screen-reader user lands on the problem and hears its message.
 */
export function focusFirstInvalid(form: HTMLElement | null, errors: Partial<Record<string, string>>) {
  if (!form) return;
  for (const control of form.querySelectorAll<HTMLElement>('input[name], button[name], textarea[name]')) {
    const name = control.getAttribute('name') ?? '';
    if (errors[name]) {
      control.focus();
      return;
    }
  }
}
