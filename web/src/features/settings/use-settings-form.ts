import { type ChangeEvent, useState } from 'react';
import { errorMessage, extractFieldErrors } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { type FieldErrors, sentence } from './settings-form.ts';

/**
 * A settings form's values and per-field errors: typing in a field clears its error, `field(key)`
 * ties a SettingsField to a value, and the server's field errors land on their fields.
 */
export function useSettingsForm<V extends { [K in keyof V]: string }>(initial: V | (() => V)) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});

  const set = (key: keyof V & string, value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: '' }));
  };

  return {
    values,
    setValues,
    errors,
    setErrors,
    /** The name, value, change handler and error message of the field for `key`. */
    field: (key: keyof V & string) => {
      const error = errors[key];
      return {
        name: key,
        value: values[key],
        onChange: (event: ChangeEvent<HTMLInputElement>) => set(key, event.target.value),
        error: error ? sentence(error) : undefined,
      };
    },
    /** Shows the client-side problems; true when there are none and the form may be sent. */
    accepts: (problems: FieldErrors) => {
      if (Object.keys(problems).length === 0) return true;
      setErrors(problems);
      return false;
    },
    /** A refused request: its field errors on their fields, or else a toast saying `fallback`. */
    refused: (error: unknown, fallback: string) => {
      const fields = extractFieldErrors(error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) errorToast('Error', errorMessage(error, fallback));
    },
  };
}
