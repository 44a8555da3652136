/** A CSV file built in the browser (the Sales tab's export). */

export type CsvValue = string | number | null | undefined;

/** Cells a spreadsheet would evaluate as a formula (OWASP "CSV injection"), plus tab and CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field per RFC 4180: quoted when it holds a comma, quote, CR or LF, quotes doubled. Text
 * that starts like a formula gets a leading ' so spreadsheets show it as text. Numbers are ours.
 */
export function csvField(value: CsvValue): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'number') text = String(value);
  else text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A header line, then one record per row, every line ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}

/** Hands the text to the browser as a file download. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
