import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Database } from '../server/src/db/client.ts';
import { createThrowawayDatabase } from '../server/src/test/throwaway-database.ts';
import { percentile, type Row, report } from './report.ts';

// ---------------------------------------------------------------------------------------------
// The load generator (runs in a worker thread)
// ---------------------------------------------------------------------------------------------

interface LoadJob {
  url: string;
  connections: number;
  warmupSec: number;
  durationSec: number;
}

interface RunStats {
  /** Responses by status code. */
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Responses whose status was not 200. */
  not200: number;
}

interface LoadResult {
  warmup: RunStats;
  measured: RunStats & {
    samples: number[];
    durationSec: number;
    /** autocannon's own histogram percentiles (whole milliseconds), for cross-checking. */
    autocannon: { p50: number; p90: number; p97_5: number; p99: number; max: number };
  };
}

/**
 * The worker's code, plain JavaScript: a worker thread does not inherit tsx's loader, so it cannot
 * load this TypeScript file. It runs autocannon twice (warm-up, then measured) and records the
 * status and the time of every response of the measured run.
 */
const LOAD_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const autocannon = require(workerData.autocannonPath);
const job = workerData.job;

function runOnce(seconds, onSample) {
  return new Promise((resolve, reject) => {
    const statusCodes = {};
    let instance;
    // autocannon stops on its own after 'duration'; the timer is a bound in case it does not.
    const guard = setTimeout(() => instance.stop(), (seconds + 30) * 1000);
    instance = autocannon(
      { url: job.url, connections: job.connections, duration: seconds, timeout: 10 },
      (error, result) => {
        clearTimeout(guard);
        if (error) return reject(error);
        let not200 = 0;
        for (const [code, n] of Object.entries(statusCodes)) if (code !== '200') not200 += n;
        resolve({ result, stats: { statusCodes, errors: result.errors, timeouts: result.timeouts, not200 } });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statusCodes[statusCode] = (statusCodes[statusCode] || 0) + 1;
      if (onSample) onSample(responseTime);
    });
  });
}

(async () => {
  const warmup = await runOnce(job.warmupSec);
  const samples = [];
  const measured = await runOnce(job.durationSec, (ms) => samples.push(ms));
  // In a worker thread autocannon hands back the raw result; aggregate it for its histogram.
  const l = autocannon.aggregateResult([measured.result], { url: job.url, connections: job.connections }).latency;
  parentPort.postMessage({
    warmup: warmup.stats,
    measured: {
      ...measured.stats,
      samples,
      durationSec: measured.result.duration,
      autocannon: { p50: l.p50, p90: l.p90, p97_5: l.p97_5, p99: l.p99, max: l.max },
    },
  });
})().catch((error) => { throw error; });
`;

/** Runs one warm-up and one measured autocannon run in a worker thread. */
function load(job: LoadJob): Promise<LoadResult> {
  const autocannonPath = createRequire(import.meta.url).resolve('autocannon');
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER_SOURCE, { eval: true, workerData: { autocannonPath, job } });
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load worker exited with code ${code} before answering`)));
  });
}

// ---------------------------------------------------------------------------------------------
// The benchmark (main thread)
// ---------------------------------------------------------------------------------------------

interface Options {
  large: boolean;
  products: number;
  durationSec: number;
  warmupSec: number;
  connections: number;
  explain: boolean;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string): string | undefined => {
    const inline = argv.find((a) => a.startsWith(`--${name}=`));
    if (inline) return inline.slice(name.length + 3);
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const number = (name: string): number | undefined => {
    const raw = value(name);
    if (raw === undefined) return undefined;
    const n = Number(raw.replaceAll('_', ''));
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a positive number, got "${raw}"`);
    return n;
  };
  const large = argv.includes('--large');
  return {
    large,
    products: Math.round(number('products') ?? (large ? 1_000_000 : 100_000)),
    durationSec: number('duration') ?? 8,
    warmupSec: number('warmup') ?? 2,
    connections: Math.max(1, Math.round(number('connections') ?? 10)),
    explain: argv.includes('--explain'),
  };
}

interface Endpoint {
  key: string;
  label: string;
  path: string;
  /** p95 target in ms for this catalogue, when the issue sets one. */
  target?: number;
}

/** The targets: 100k products on PGlite, and relevance at 1M on PostgreSQL. */
function targetFor(key: string, options: Options): number | undefined {
  if (options.large) return key.startsWith('relevance') ? 100 : undefined;
  if (options.products > 100_000) return undefined;
  if (key === 'newest' || key === 'filtered') return 15;
  if (key.startsWith('relevance')) return 50;
  if (key === 'facets') return 40;
  return undefined;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

function createBenchDatabase() {
  return createThrowawayDatabase(
    process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    'bench',
  );
}

/** A word in many titles: the most frequent title word of a sample, by its full-text match count. */
async function commonWord(database: Database): Promise<{ word: string; matches: number }> {
  const { rows } = await database.pool.query<{ title: string }>('select title from products limit 20000');
  const docs = new Map<string, number>();
  for (const { title } of rows) {
    for (const word of new Set(title.toLowerCase().match(/\b[a-z]{4,}\b/g) ?? [])) {
      docs.set(word, (docs.get(word) ?? 0) + 1);
    }
  }
  const candidates = [...docs.entries()].sort((x, y) => y[1] - x[1]).slice(0, 8);
  let best = { word: '', matches: -1 };
  for (const [word] of candidates) {
    const matches = await fullTextMatches(database, word);
    if (matches > best.matches) best = { word, matches };
  }
  if (!best.word) throw new Error('no common title word found');
  return best;
}

/** A word few products match (full-text, so the typo fallback is not what is measured). */
async function rareWord(database: Database): Promise<{ word: string; matches: number }> {
  const { rows } = await database.pool.query<{ word: string; ndoc: number }>(
    `select word, ndoc from ts_stat('select search_vector from products')
     where word ~ '^[a-z]{5,}$' order by ndoc, word limit 40`,
  );
  for (const { word } of rows) {
    const matches = await fullTextMatches(database, word);
    if (matches >= 1 && matches <= 100) return { word, matches };
  }
  const fallback = rows[0];
  if (!fallback) throw new Error('no rare word found');
  return { word: fallback.word, matches: await fullTextMatches(database, fallback.word) };
}

async function fullTextMatches(database: Database, word: string): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(
    `select count(*)::int as n from products where search_vector @@ websearch_to_tsquery('english', $1)`,
    [word],
  );
  return rows[0]?.n ?? 0;
}

interface Explained {
  /** Median of 5 plain runs, round trip included. */
  ms: number;
  /** Execution Time of EXPLAIN ANALYZE (with per-node timing overhead). */
  explainMs: number;
  sql: string;
  plan: string;
}

interface Captured {
  text: string;
  values: unknown[];
}

/** Runs one request through the app, recording every SQL statement it sends, then explains each. */
async function explainEndpoint(
  app: import('fastify').FastifyInstance,
  database: Database,
  endpoint: Endpoint,
): Promise<Explained[]> {
  const captured: Captured[] = [];
  const pool = database.pool as unknown as { query: (...args: unknown[]) => unknown };
  const original = pool.query;
  pool.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
    if (text) captured.push({ text, values: Array.isArray(second) ? second : [] });
    return original.apply(this, args);
  };
  try {
    await app.inject({ method: 'GET', url: endpoint.path });
  } finally {
    pool.query = original;
  }
  const plans: Explained[] = [];
  for (const statement of captured) {
    if (/^\s*explain/i.test(statement.text)) continue;
    const { rows } = await database.pool.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${statement.text}`,
      statement.values,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const explainMs = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN);
    // EXPLAIN ANALYZE's per-node timing inflates a lot on PGlite: time the plain statement too.
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await database.pool.query(statement.text, statement.values);
      times.push(performance.now() - t0);
    }
    plans.push({
      ms: Math.round(percentile(times, 50) * 100) / 100,
      explainMs,
      sql: statement.text.replace(/\s+/g, ' ').trim(),
      plan,
    });
  }
  return plans;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const { testConfig } = await import('../server/src/test/test-app.ts');
  const { buildApp } = await import('../server/src/app.ts');
  const { openDatabase } = await import('../server/src/db/client.ts');
  const { seedDemo, seedLargeCatalogue } = await import('../server/src/db/seed/index.ts');

  // testConfig makes a fresh temp folder; it is the DATA_DIR (PGlite files, seed images).
  const config = testConfig({ logLevel: 'silent' });
  const dataDir = config.dataDir;
  const kind = options.large ? 'PostgreSQL' : 'PGlite';
  console.log(
    `explore: ${options.products.toLocaleString('en')} products on ${kind}, DATA_DIR ${dataDir}; ` +
      `${options.warmupSec} s warm-up + ${options.durationSec} s per endpoint, ${options.connections} connections`,
  );

  let database: Database | undefined;
  let server: Awaited<ReturnType<typeof createBenchDatabase>> | undefined;
  let app: import('fastify').FastifyInstance | undefined;
  const rows: Row[] = [];
  const meta: Record<string, unknown> = {};
  try {
    if (options.large) {
      server = await createBenchDatabase();
      database = await openDatabase({ databaseUrl: server.url });
    } else {
      database = await openDatabase({ dataDir });
    }
    const db = database.db;

    // --- seeding -----------------------------------------------------------------------------
    const demo = await seedDemo(db, dataDir);
    console.log(`seeded the demo: ${demo.products} products in ${seconds(demo.ms)} s`);
    const { rows: before } = await database.pool.query<{ n: number }>(
      'select count(*)::int as n from products',
    );
    const toAdd = Math.max(0, options.products - (before[0]?.n ?? 0));
    let lastTenth = 0;
    const bulk = await seedLargeCatalogue(db, dataDir, toAdd, {
      log: (message) => {
        const done = Number(/(\d+) \/ \d+ products/.exec(message)?.[1] ?? 0);
        const tenth = Math.floor((done / Math.max(1, toAdd)) * 10);
        if (tenth > lastTenth) {
          lastTenth = tenth;
          console.log(`  ${done.toLocaleString('en')} / ${toAdd.toLocaleString('en')} products`);
        }
      },
    });
    const { rows: after } = await database.pool.query<{ n: number }>(
      'select count(*)::int as n from products',
    );
    const productCount = after[0]?.n ?? 0;
    console.log(
      `seeded ${bulk.products.toLocaleString('en')} more products in ${seconds(bulk.ms)} s ` +
        `(VACUUM ANALYZE ${seconds(bulk.vacuumMs)} s); ${productCount.toLocaleString('en')} in all`,
    );
    rows.push({ metric: `seed demo (${demo.products} products)`, value: demo.ms / 1000, unit: 's' });
    rows.push({
      metric: `seed ${bulk.products.toLocaleString('en')} generated products`,
      value: bulk.ms / 1000,
      unit: 's',
      note: `incl. VACUUM ANALYZE ${seconds(bulk.vacuumMs)} s; ${Math.round(bulk.products / (bulk.ms / 1000))} rows/s`,
    });

    // --- inputs: a real category, a common and a rare word -------------------------------------
    const { rows: categoryRows } = await database.pool.query<{ id: number; slug: string; n: number }>(
      `select c.id, c.slug, count(p.id)::int as n from categories c join products p on p.category_id = c.id
       group by c.id, c.slug order by n desc limit 1`,
    );
    const category = categoryRows[0];
    if (!category) throw new Error('no category with products');
    const t0 = performance.now();
    const common = await commonWord(database);
    const rare = await rareWord(database);
    console.log(
      `category ${category.id} (${category.slug}, ${category.n} products); common word "${common.word}" ` +
        `(${common.matches} matches), rare word "${rare.word}" (${rare.matches}) picked in ${seconds(performance.now() - t0)} s`,
    );

    const endpoints: Endpoint[] = [
      { key: 'floor', label: 'floor: GET /bench/floor (constant JSON)', path: '/bench/floor' },
      { key: 'newest', label: 'explore newest, page 1', path: '/api/explore' },
      {
        key: 'filtered',
        label: `explore price_low, category ${category.slug}, $10–200`,
        path: `/api/explore?sort=price_low&category=${category.id}&minPrice=10&maxPrice=200`,
      },
      {
        key: 'relevance-common',
        label: `relevance "${common.word}" (${common.matches} matches)`,
        path: `/api/explore?search=${encodeURIComponent(common.word)}&sort=relevance`,
      },
      {
        key: 'relevance-rare',
        label: `relevance "${rare.word}" (${rare.matches} matches)`,
        path: `/api/explore?search=${encodeURIComponent(rare.word)}&sort=relevance`,
      },
      { key: 'facets', label: 'facets (no filter)', path: '/api/facets' },
    ];
    for (const endpoint of endpoints) endpoint.target = targetFor(endpoint.key, options);

    // --- the app -----------------------------------------------------------------------------
    app = await buildApp(config, { database });
    app.get('/bench/floor', async () => ({ ok: true, service: 'streamshop' }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no TCP address');
    const base = `http://127.0.0.1:${address.port}`;

    // One checked request each: 200 and, for searches, results in full-text mode.
    const checks: Record<string, unknown> = {};
    for (const endpoint of endpoints) {
      const response = await fetch(`${base}${endpoint.path}`);
      const body = (await response.json()) as {
        products?: unknown[];
        pagination?: { total: number; totalIsEstimate: boolean };
      };
      if (response.status !== 200)
        throw new Error(`${endpoint.path}: ${response.status} ${JSON.stringify(body)}`);
      if (endpoint.key !== 'floor' && endpoint.key !== 'facets' && !body.products?.length)
        throw new Error(`${endpoint.path}: no products in the answer`);
      checks[endpoint.key] = { products: body.products?.length, ...body.pagination };
    }

    // --- the load ------------------------------------------------------------------------------
    // Other work on the machine skews every figure: the load average goes into the results.
    const loadAverageBefore = loadavg();
    if (loadAverageBefore[0] && loadAverageBefore[0] > availableParallelism())
      console.warn(
        `!! load average ${loadAverageBefore.map((n) => n.toFixed(1)).join(' ')} on ${availableParallelism()} CPUs: ` +
          'other work is running, the figures will be slower than on a quiet machine',
      );
    const results = new Map<string, LoadResult>();
    for (const endpoint of endpoints) {
      const result = await load({
        url: `${base}${endpoint.path}`,
        connections: options.connections,
        warmupSec: options.warmupSec,
        durationSec: options.durationSec,
      });
      results.set(endpoint.key, result);
      const s = result.measured.samples;
      console.log(
        `  ${endpoint.label}: p50 ${percentile(s, 50).toFixed(1)} ms, p95 ${percentile(s, 95).toFixed(1)} ms, ` +
          `${Math.round(s.length / result.measured.durationSec)} req/s` +
          (result.measured.not200 + result.measured.errors + result.measured.timeouts
            ? `  !! ${result.measured.not200} non-200, ${result.measured.errors} errors, ${result.measured.timeouts} timeouts`
            : ''),
      );
    }

    // --- figures -------------------------------------------------------------------------------
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

    // --- plans (optional) ------------------------------------------------------------------------
    if (options.explain) {
      const plans: Record<string, Array<{ ms: number; explainMs: number; sql: string }>> = {};
      for (const endpoint of endpoints) {
        if (endpoint.key === 'floor') continue;
        const explained = await explainEndpoint(app, database, endpoint);
        plans[endpoint.key] = explained.map(({ ms, explainMs, sql }) => ({ ms, explainMs, sql }));
        console.log(`\n=== ${endpoint.label}: ${endpoint.path}`);
        for (const { ms, explainMs, sql, plan } of explained) {
          console.log(
            `--- ${ms} ms (median of 5; EXPLAIN ANALYZE ${explainMs} ms): ${sql.slice(0, 300)}${sql.length > 300 ? ' …' : ''}\n${plan}`,
          );
        }
      }
      meta.plans = plans;
    }

    report('explore', rows, meta);
    console.log(`\nverdicts: ${JSON.stringify(verdicts)}`);
    if (bad) {
      console.error(
        `\n!!! ${bad} responses were not 200 or failed (see statusCodes/errors per run in the JSON): ` +
          'the figures of this run are NOT valid.',
      );
      process.exitCode = 1;
    }
  } finally {
    await app?.close();
    await database?.close();
    await server?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    console.log(`explore: done in ${seconds(performance.now() - started)} s`);
  }
}

await main();
