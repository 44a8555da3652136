import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type { Database } from '../server/src/test/support.ts';
import { createThrowawayDatabase, loadInProcessServer } from '../server/src/test/support.ts';
import { type Endpoint, endpointsFor, type Inputs } from './explore/endpoints.ts';
import { explainAll } from './explore/explain.ts';
import { type LoadResult, load } from './explore/load.ts';
import { type Options, parseOptions } from './explore/options.ts';
import { judge, seconds, writeReport } from './explore/report.ts';
import { percentile } from './report.ts';

// ---------------------------------------------------------------------------------------------
// The database and the words searched for
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// The phases
// ---------------------------------------------------------------------------------------------

/** The server's modules, loaded once the options are read. */
async function serverModules() {
  const { testConfig, buildApp, openDatabase, seedDemo, seedLargeCatalogue } = await loadInProcessServer();
  return { testConfig, buildApp, openDatabase, seedDemo, seedLargeCatalogue };
}

type ServerModules = Awaited<ReturnType<typeof serverModules>>;

/** Seeding (timed, reported): the demo, then generated products up to --products. */
async function seed(
  { seedDemo, seedLargeCatalogue }: ServerModules,
  database: Database,
  dataDir: string,
  options: Options,
) {
  const db = database.db;
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
  const { rows: after } = await database.pool.query<{ n: number }>('select count(*)::int as n from products');
  const productCount = after[0]?.n ?? 0;
  console.log(
    `seeded ${bulk.products.toLocaleString('en')} more products in ${seconds(bulk.ms)} s ` +
      `(VACUUM ANALYZE ${seconds(bulk.vacuumMs)} s); ${productCount.toLocaleString('en')} in all`,
  );
  return { demo, bulk, productCount };
}

/** The inputs: the largest category, a common and a rare word. */
async function pickInputs(database: Database): Promise<Inputs> {
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
  return { category, common, rare };
}

/** The app on a free port, with the floor route added; its base URL. */
async function listen(app: import('fastify').FastifyInstance): Promise<string> {
  app.get('/bench/floor', async () => ({ ok: true, service: 'streamshop' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}

/** One checked request each: 200 and, for searches, results in full-text mode. */
async function checkEndpoints(base: string, endpoints: Endpoint[]) {
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
  return checks;
}

/** The load (measured): a warm-up and a measured autocannon run per endpoint, one after the other. */
async function runLoad(options: Options, base: string, endpoints: Endpoint[]) {
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
  return { loadAverageBefore, results };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const modules = await serverModules();

  // testConfig makes a fresh temp folder; it is the DATA_DIR (PGlite files, seed images).
  const config = modules.testConfig({ logLevel: 'silent' });
  const dataDir = config.dataDir;
  const kind = options.large ? 'PostgreSQL' : 'PGlite';
  console.log(
    `explore: ${options.products.toLocaleString('en')} products on ${kind}, DATA_DIR ${dataDir}; ` +
      `${options.warmupSec} s warm-up + ${options.durationSec} s per endpoint, ${options.connections} connections`,
  );

  let database: Database | undefined;
  let server: Awaited<ReturnType<typeof createBenchDatabase>> | undefined;
  let app: import('fastify').FastifyInstance | undefined;
  try {
    if (options.large) {
      server = await createBenchDatabase();
      database = await modules.openDatabase({ databaseUrl: server.url });
    } else {
      database = await modules.openDatabase({ dataDir });
    }
    const seeded = await seed(modules, database, dataDir, options);
    const inputs = await pickInputs(database);
    const endpoints = endpointsFor(options, inputs);
    app = await modules.buildApp(config, { database });
    const base = await listen(app);
    const checks = await checkEndpoints(base, endpoints);
    const { loadAverageBefore, results } = await runLoad(options, base, endpoints);
    const judged = judge(options, { kind, seeded, inputs, endpoints, checks, loadAverageBefore, results });
    if (options.explain) judged.meta.plans = await explainAll(app, database, endpoints);
    writeReport(judged);
    if (judged.failures) process.exitCode = 1;
  } finally {
    await app?.close();
    await database?.close();
    await server?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    console.log(`explore: done in ${seconds(performance.now() - started)} s`);
  }
}

await main();
