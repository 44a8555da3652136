import { useEffect, useRef, useState } from 'react';
import { type FieldErrors, fieldErrorsFromServer, focusFirstInvalid } from './form-errors.ts';

/**
 * A form's inline errors: set from a check that failed or a server answer, cleared per field as
 * the person edits it. After each new set, focus moves to the first field in error (once the
 * messages are drawn, so a screen reader reads the field with its message).
 */
export function useFieldErrors<Field extends string>(labels: Record<Field, string>) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const focusPending = useRef(false);

  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    focusFirstInvalid(formRef.current, errors);
  }, [errors]);

  const show = (next: FieldErrors<Field>) => {
    focusPending.current = Object.keys(next).length > 0;
    setErrors(next);
  };

  return {
    formRef,
    errors,
    show,
    /** Shows the fields of a failed call's answer; whether it named any of this form's fields. */
    showServer(error: unknown): boolean {
      const fromServer = fieldErrorsFromServer(error, labels);
      show(fromServer);
      return Object.keys(fromServer).length > 0;
    },
    /** Forgets one field's error (the person is changing it). */
    clear(field: Field) {
      setErrors((current) => {
        if (!current[field]) return current;
        const { [field]: _gone, ...rest } = current;
        return rest as FieldErrors<Field>;
      });
    },
    clearAll() {
      setErrors({});
    },
  };
}
