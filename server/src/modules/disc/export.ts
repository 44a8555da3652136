import type { Db } from '../../db/client.ts';
import { betaSignupsForExport, discOrdersForExport, newsletterPreordersForExport } from './repo.ts';

/**
 * CSV exports of what the marketing forms collected (issue 7: "an admin-less export is enough for
 * now"). `npm run export -- <kind>` (server/src/cli/export.ts) prints them.
 */
export const EXPORT_KINDS = ['signups', 'preorders', 'orders'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const isExportKind = (value: string): value is ExportKind =>
  (EXPORT_KINDS as readonly string[]).includes(value);

export type CsvValue = string | number | Date | null | undefined;

/** Cells a spreadsheet would evaluate as a formula (OWASP "CSV injection"), plus tab and CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field per RFC 4180: quoted when it holds a comma, quote, CR or LF, quotes doubled.
 * Text that starts like a formula gets a leading single quote so Excel, LibreOffice and Sheets
 * show it as text instead of running it. Numbers and dates are ours, so they are left alone.
 */
export function csvField(value: CsvValue): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (value instanceof Date) text = value.toISOString();
  else if (typeof value === 'number') text = String(value);
  else text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole CSV document: a header line, then one record per row, every line ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The CSV of one kind, oldest row first. */
export async function exportCsv(db: Db, kind: ExportKind): Promise<{ csv: string; rows: number }> {
  switch (kind) {
    case 'signups': {
      const rows = await betaSignupsForExport(db);
      return {
        rows: rows.length,
        csv: toCsv(
          ['email', 'source', 'created_at'],
          rows.map((r) => [r.email, r.source, r.createdAt]),
        ),
      };
    }
    case 'preorders': {
      const rows = await newsletterPreordersForExport(db);
      return {
        rows: rows.length,
        csv: toCsv(
          ['name', 'email', 'quantity', 'total_price', 'created_at'],
          rows.map((r) => [r.name, r.email, r.quantity, dollars(r.totalPriceCents), r.createdAt]),
        ),
      };
    }
    case 'orders': {
      const rows = await discOrdersForExport(db);
      return {
        rows: rows.length,
        csv: toCsv(
          [
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
          ],
          rows.map((r) => [
            r.name,
            r.email,
            r.phone,
            r.company,
            r.quantity,
            r.shippingAddress,
            r.city,
            r.state,
            r.zipCode,
            r.country,
            r.createdAt,
          ]),
        ),
      };
    }
  }
}
