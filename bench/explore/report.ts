/** The explore bench's figures, verdicts (against the targets), its table and its JSON. */
import { availableParallelism, loadavg } from 'node:os';
import type { LargeCatalogueSummary, SeedSummary } from '../../server/src/test/support.ts';
import { percentile, type Row, report } from '../report.ts';
import type { Endpoint, Inputs } from './endpoints.ts';
import type { LoadResult } from './load.ts';
import type { Options } from './options.ts';

/** Milliseconds as seconds, to one decimal. */
export const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** What a run measured, phase by phase (the phases are in bench/explore.ts). */
export interface ExploreRun {
  kind: string;
  seeded: { demo: SeedSummary; bulk: LargeCatalogueSummary; productCount: number };
  inputs: Inputs;
  endpoints: Endpoint[];
  checks: Record<string, unknown>;
  loadAverageBefore: number[];
  results: Map<string, LoadResult>;
}

/** The rows and the JSON's fields (plans may be added), the verdicts, and the failed responses. */
export function judge(options: Options, run: ExploreRun) {
  const { kind, inputs, endpoints, checks, loadAverageBefore, results } = run;
  const { demo, bulk, productCount } = run.seeded;
  const { category, common, rare } = inputs;
  const rows: Row[] = [];
  const meta: Record<string, unknown> = {};
  rows.push({ metric: `seed demo (${demo.products} products)`, value: demo.ms / 1000, unit: 's' });
  rows.push({
    metric: `seed ${bulk.products.toLocaleString('en')} generated products`,
    value: bulk.ms / 1000,
    unit: 's',
    note: `incl. VACUUM ANALYZE ${seconds(bulk.vacuumMs)} s; ${Math.round(bulk.products / (bulk.ms / 1000))} rows/s`,
  });

  const floor = results.get('floor');
  if (!floor) throw new Error('no floor figures');
  const floorP50 = percentile(floor.measured.samples, 50);
  const floorP95 = percentile(floor.measured.samples, 95);
  const floorRps = floor.measured.samples.length / floor.measured.durationSec;
  const verdicts: Record<string, string> = {};
  const runs: Record<string, unknown> = {};
  let bad = 0;
  for (const endpoint of endpoints) {
    const result = results.get(endpoint.key);
    if (!result) continue;
    const { measured, warmup } = result;
    const s = measured.samples;
    const p50 = percentile(s, 50);
    const p95 = percentile(s, 95);
    const p99 = percentile(s, 99);
    const rps = s.length / measured.durationSec;
    const failures = measured.not200 + measured.errors + measured.timeouts;
    const warmupFailures = warmup.not200 + warmup.errors + warmup.timeouts;
    bad += failures + warmupFailures;
    const isFloor = endpoint.key === 'floor';
    let verdict = 'no target';
    if (endpoint.target !== undefined)
      verdict = `target p95 ≤ ${endpoint.target} ms: ${p95 <= endpoint.target ? 'met' : 'MISSED'}`;
    if (!isFloor) verdicts[endpoint.key] = verdict;
    rows.push({
      metric: `${endpoint.label} p50`,
      value: p50,
      unit: 'ms',
      ...(isFloor ? {} : { baseline: floorP50, note: `${(p50 / floorP50).toFixed(1)}x the floor` }),
    });
    rows.push({
      metric: `${endpoint.label} p95`,
      value: p95,
      unit: 'ms',
      ...(isFloor ? {} : { baseline: floorP95, note: verdict }),
    });
    rows.push({ metric: `${endpoint.label} p99`, value: p99, unit: 'ms' });
    rows.push({
      metric: `${endpoint.label} requests/s`,
      value: rps,
      unit: 'req/s',
      ...(isFloor ? {} : { baseline: floorRps }),
      note:
        `${s.length} responses` +
        (failures
          ? `; ${measured.not200} non-200, ${measured.errors} errors, ${measured.timeouts} timeouts`
          : ''),
    });
    runs[endpoint.key] = {
      path: endpoint.path,
      target: endpoint.target,
      p50,
      p95,
      p99,
      requestsPerSec: rps,
      responses: s.length,
      durationSec: measured.durationSec,
      statusCodes: measured.statusCodes,
      errors: measured.errors,
      timeouts: measured.timeouts,
      warmup: warmup,
      autocannonHistogram: measured.autocannon,
    };
  }
  rows.push({
    metric: 'responses that were not 200, plus errors and timeouts (all runs)',
    value: bad,
    unit: '',
    note: bad ? 'THE RUN HAD FAILURES: figures are not valid' : 'every response was 200',
  });

  Object.assign(meta, {
    database: kind,
    products: productCount,
    machine: { cpus: availableParallelism(), loadAverageBefore, loadAverageAfter: loadavg() },
    connections: options.connections,
    warmupSec: options.warmupSec,
    durationSec: options.durationSec,
    percentiles:
      'exact, over every response time of the measured run (ms, from autocannon per-response timings)',
    seeding: { demo, bulk },
    inputs: { category, commonWord: common, rareWord: rare },
    checks,
    verdicts,
    failures: bad,
    runs,
  });
  return { rows, meta, verdicts, failures: bad };
}

/** Prints the table and writes bench/results/explore.json, then the verdicts. */
export function writeReport({ rows, meta, verdicts, failures }: ReturnType<typeof judge>): void {
  report('explore', rows, meta);
  console.log(`\nverdicts: ${JSON.stringify(verdicts)}`);
  if (failures) {
    console.error(
      `\n!!! ${failures} responses were not 200 or failed (see statusCodes/errors per run in the JSON): ` +
        'the figures of this run are NOT valid.',
    );
  }
}
