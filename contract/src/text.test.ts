import { describe, expect, it } from 'vitest';
import { textSchema } from './text.ts';

const reason = (schema: ReturnType<typeof textSchema>, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe('textSchema', () => {
  const line = textSchema('title');
  const lines = textSchema('description', { multiline: true });
  const name = textSchema('First name', { name: true });

  it('refuses every control character on one line: NUL, C0, DEL, C1, tab and line breaks', () => {
    for (const control of ['\u0000', '\u0007', '\u001B', '\u007F', '\u0085', '\u009F', '\t', '\n', '\r']) {
      expect(reason(line, `a${control}b`), JSON.stringify(control)).toBe(
        'title must not contain control characters',
      );
    }
  });

  it('keeps tab and line breaks in text of several lines, and refuses the other controls', () => {
    expect(lines.parse('one\n\ttwo\r\nthree')).toBe('one\n\ttwo\r\nthree');
    expect(reason(lines, 'one\u0000two')).toBe('description must not contain control characters');
    expect(reason(lines, 'one\u000Btwo')).toBe('description must not contain control characters');
  });

  it('refuses text-direction controls in names only', () => {
    for (const bidi of ['\u202A', '\u202E', '\u2066', '\u2069', '\u200E', '\u200F', '\u061C']) {
      expect(reason(name, `Bob${bidi}evil`)).toBe(
        'First name must not contain text-direction control characters',
      );
      expect(line.parse(`Bob${bidi}evil`)).toBe(`Bob${bidi}evil`);
    }
    expect(name.parse('مريم')).toBe('مريم');
  });

  it('trims, and names the field when the value is missing or not text', () => {
    expect(line.parse('  Blue Note  ')).toBe('Blue Note');
    expect(reason(line, undefined)).toBe('title is required');
    expect(reason(line, 42)).toBe('title must be text');
  });
});
