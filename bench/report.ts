import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Row {
  metric: string;
  value: number;
  unit: string;
  /** The same measure on a baseline taken in the same run, when there is one. */
  baseline?: number;
  note?: string;
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

const round = (n: number) => (Number.isFinite(n) ? Math.round(n * 100) / 100 : n);

function printTable(title: string, rows: Row[]): void {
  const table = rows.map((r) => ({
    metric: r.metric,
    value: `${round(r.value)} ${r.unit}`,
    baseline: r.baseline === undefined ? '' : `${round(r.baseline)} ${r.unit}`,
    note: r.note ?? '',
  }));
  console.log(`\n${title}`);
  console.table(table);
}

/**
 * Prints the rows as a table and writes them to bench/results/<name>.json; each of `sections`
 * (another run of the same bench) is printed as its own table after it and written, its `meta`
 * and its rows, under `sections.<title>` of the same JSON.
 */
export function report(
  name: string,
  rows: Row[],
  meta: Record<string, unknown> = {},
  sections: Record<string, { rows: Row[]; meta?: Record<string, unknown> }> = {},
): void {
  printTable(name, rows);
  for (const [title, section] of Object.entries(sections)) printTable(`${name}: ${title}`, section.rows);
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}${name}.json`;
  const sectionsJson = Object.keys(sections).length
    ? {
        sections: Object.fromEntries(
          Object.entries(sections).map(([title, section]) => [
            title,
            { ...section.meta, rows: section.rows },
          ]),
        ),
      }
    : {};
  writeFileSync(
    file,
    `${JSON.stringify({ name, at: new Date().toISOString(), node: process.version, ...meta, rows, ...sectionsJson }, null, 2)}\n`,
  );
  console.log(`written ${file}`);
}
