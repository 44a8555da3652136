import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { createTestDatabase } from '../../test/test-app.ts';
import { csvField, EXPORT_KINDS, exportCsv, isExportKind, toCsv } from './export.ts';
import { insertBetaSignup, insertDiscOrder, insertNewsletterPreorder } from './repo.ts';

/** A small RFC 4180 reader, so the tests check what a CSV consumer would get back. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(quoted).toBe(false);
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rlf', '"cr\rlf"'],
    ['=1+1', "'=1+1"],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTAB', "'\tTAB"],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j -> %s', (input, expected) => {
    expect(csvField(input)).toBe(expected);
  });

  it('writes empty cells for null, numbers as they are and dates in ISO 8601 UTC', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(new Date('2025-01-02T03:04:05.678Z'))).toBe('2025-01-02T03:04:05.678Z');
  });

  it('ends every record with CRLF', () => {
    expect(toCsv(['a', 'b'], [[1, 'x']])).toBe('a,b\r\n1,x\r\n');
  });
});

describe('isExportKind', () => {
  it('knows the three kinds and nothing else', () => {
    expect(EXPORT_KINDS.filter(isExportKind)).toEqual(['signups', 'preorders', 'orders']);
    expect(isExportKind('users')).toBe(false);
    expect(isExportKind('')).toBe(false);
  });
});

describe('exportCsv on a fresh database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('exports only a header when nothing was collected', async () => {
    expect(await exportCsv(database.db, 'signups')).toEqual({ rows: 0, csv: 'email,source,created_at\r\n' });
  });

  it('exports beta sign-ups, oldest first, with hostile values intact and defused', async () => {
    await insertBetaSignup(database.db, {
      email: 'first@example.com',
      source: 'site',
      createdAt: new Date('2025-03-01T10:00:00Z'),
    });
    await insertBetaSignup(database.db, {
      email: '=cmd|"/c calc"!A1@example.com',
      source: 'music,film\n"quoted"',
      createdAt: new Date('2025-03-02T10:00:00Z'),
    });
    const { csv, rows } = await exportCsv(database.db, 'signups');
    expect(rows).toBe(2);
    expect(parseCsv(csv)).toEqual([
      ['email', 'source', 'created_at'],
      ['first@example.com', 'site', '2025-03-01T10:00:00.000Z'],
      ['\'=cmd|"/c calc"!A1@example.com', 'music,film\n"quoted"', '2025-03-02T10:00:00.000Z'],
    ]);
  });

  it('exports newsletter pre-orders with the total in dollars', async () => {
    await insertNewsletterPreorder(database.db, {
      name: 'Lovelace, Ada "Countess"',
      email: 'ada@example.com',
      quantity: 10,
      totalPriceCents: 3500,
    });
    const { csv } = await exportCsv(database.db, 'preorders');
    const [header, ...records] = parseCsv(csv);
    expect(header).toEqual(['name', 'email', 'quantity', 'total_price', 'created_at']);
    expect(records).toHaveLength(1);
    expect(records[0]?.slice(0, 4)).toEqual(['Lovelace, Ada "Countess"', 'ada@example.com', '10', '35.00']);
    expect(Number.isNaN(Date.parse(records[0]?.[4] ?? ''))).toBe(false);
  });

  it('exports disc orders with empty optional cells and multi-line addresses', async () => {
    await insertDiscOrder(database.db, {
      name: '@ttacker',
      email: 'shop@example.com',
      phone: null,
      company: '+SUM(1,2)',
      quantity: 250,
      shippingAddress: '1 Main St\r\nSuite 5, Floor 2',
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
    });
    const { csv } = await exportCsv(database.db, 'orders');
    const [header, record] = parseCsv(csv);
    expect(header).toEqual([
      'name',
      'email',
      'phone',
      'company',
      'quantity',
      'shipping_address',
      'city',
      'state',
      'zip_code',
      'country',
      'created_at',
    ]);
    expect(record?.slice(0, 10)).toEqual([
      "'@ttacker",
      'shop@example.com',
      '',
      "'+SUM(1,2)",
      '250',
      '1 Main St\r\nSuite 5, Floor 2',
      'Springfield',
      'IL',
      '62701',
      'US',
    ]);
  });
});
