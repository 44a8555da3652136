import { z } from 'zod';

/**
 * Free text a person types (names, titles, search, descriptions, chat). Every such field is built
 * from `textSchema`, so the same characters are refused in the browser and on the server.
 */

/**
 * Control characters (Unicode Cc: C0, DEL, C1). Nobody types them; PostgreSQL cannot store NUL
 * in text at all, and the others garble logs, CSV exports and terminals.
 */
const CONTROL_CHARACTER = /\p{Cc}/u;
/** The same, less tab, line feed and carriage return: what text of several lines may hold. */
const CONTROL_CHARACTER_EXCEPT_LINE_BREAKS = /[^\P{Cc}\t\n\r]/u;

/**
 * Bidirectional formatting characters: embeddings and overrides (U+202A-U+202E), isolates
 * (U+2066-U+2069) and the marks (U+200E, U+200F, U+061C). In a name they make it display as
 * something else ('Bob\u202Eevil' shows as 'Boblive'). Right-to-left letters need none of them.
 */
export const BIDI_CONTROL_CHARACTER = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

export const CONTROL_CHARACTER_REASON = 'must not contain control characters';
export const BIDI_CONTROL_REASON = 'must not contain text-direction control characters';

export interface TextOptions {
  /** Tabs and line breaks are allowed (descriptions, chat messages). */
  multiline?: boolean;
  /** A name other people see (person, business, storefront): bidi control characters are refused. */
  name?: boolean;
}

/**
 * A trimmed string with `label` in its messages ('title must not contain control characters').
 * Chain `.min()` / `.max()` / `.optional()` as for any string.
 */
export function textSchema(label: string, { multiline = false, name = false }: TextOptions = {}) {
  const control = multiline ? CONTROL_CHARACTER_EXCEPT_LINE_BREAKS : CONTROL_CHARACTER;
  const schema = z
    .string({
      error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`),
    })
    .trim()
    .refine((value) => !control.test(value), {
      message: `${label} ${CONTROL_CHARACTER_REASON}`,
      abort: true,
    });
  return name
    ? schema.refine((value) => !BIDI_CONTROL_CHARACTER.test(value), {
        message: `${label} ${BIDI_CONTROL_REASON}`,
        abort: true,
      })
    : schema;
}
