/** A timestamp column (a Date from node-postgres, a string from some PGlite paths) as ISO 8601. */
export const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
