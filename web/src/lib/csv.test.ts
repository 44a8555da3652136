import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv.ts';

describe('csvField', () => {
  it('prefixes a cell that starts like a formula with a quote', () => {
    for (const start of ['=', '+', '-', '@'])
      expect(csvField(`${start}HYPERLINK("x")`)).toBe(`"'${start}HYPERLINK(""x"")"`);
    expect(csvField('@handle')).toBe("'@handle");
  });

  it('quotes commas, quotes and line breaks, and leaves numbers alone', () => {
    expect(csvField('1 Main St, Apt 2')).toBe('"1 Main St, Apt 2"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField(null)).toBe('');
  });
});

describe('toCsv', () => {
  it('writes a header and CRLF-ended records', () => {
    expect(toCsv(['a', 'b'], [[1, '=2']])).toBe("a,b\r\n1,'=2\r\n");
  });
});
