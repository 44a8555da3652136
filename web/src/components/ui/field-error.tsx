import { CircleAlert } from 'lucide-react';

/**
 * The message under a form field that is not right, in words. The input names it with
 * aria-describedby (and aria-invalid), so a screen reader reads it with the field.
 */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="flex items-start gap-1.5 text-red-400 text-sm" data-testid="field-error">
      <CircleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
      {message}
    </p>
  );
}
