/**
 * Lighthouse on the marketing pages (issue 7, "Speed and findability").
 *
 * The real, built product (server/src/main.ts, fresh temp DATA_DIR with embedded PGlite, no demo
 * data) runs in a child process on 127.0.0.1, twice, from the same web/dist:
 *
 *   prerendered  as shipped: the marketing routes answer with the HTML rendered at build time
 *                (web/scripts/prerender.mjs), which the SPA then hydrates
 *   baseline     the same server with PRERENDER=false: the same routes answer with the empty SPA
 *                shell (route head tags still injected) and the page renders in the browser, as
 *                before prerendering existed
 *
 * Lighthouse 12 (npm `lighthouse`, the last line that runs on Node 20) drives Debian Chromium
 * (/usr/bin/chromium, the e2e launcher's flags plus --headless=new) through chrome-launcher, with
 * its default config: the mobile form factor and simulated throttling (slow 4G, 4x CPU slowdown).
 * Every page is run --runs times per server (default 3) and each figure is the median of those
 * runs. Categories: performance, accessibility, best-practices and SEO; metrics: LCP, CLS, TBT and
 * FCP. Targets: performance ≥ 95, accessibility ≥ 95, SEO 100, LCP ≤ 1.8 s, CLS ≤ 0.05. Any
 * audit of the accessibility, best-practices or SEO category that does not pass is listed.
 * Simulated TBT is the main-thread time observed on this machine times 4, so it grows with
 * whatever else the machine is doing: every run logs Lighthouse's benchmark index (this CPU's
 * speed at the time, higher is faster) and the load average.
 *
 *   npm run bench -- lighthouse [--runs=3] [--pages=/,/stream-disc,/stream-disc/music]
 *                               [--no-baseline] [--max-seconds=600]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) Needs the built web app (it
 * runs `npm run build` first when web/dist is missing). The exit code is 1 when a target is
 * missed on the prerendered pages; the whole run stops by itself after --max-seconds: Chromium
 * and the servers are stopped, the temp folders removed, and the exit code is 3.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/browser.ts';
import { type RunningServer, startServer } from '../e2e/server.ts';
import { type Row, report } from './report.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_PAGES = ['/', '/stream-disc', '/stream-disc/music'];
const DEFAULTS = { runs: 3, maxSeconds: 600 };
const TARGET = { performance: 95, accessibility: 95, seo: 100, lcpMs: 1800, cls: 0.05 };
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

interface Options {
  runs: number;
  pages: string[];
  baseline: boolean;
  maxSeconds: number;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number, min: number, max: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
    }
    return n;
  };
  const pages = value('pages')
    ?.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    runs: number('runs', DEFAULTS.runs, 1, 20),
    pages: pages?.length ? pages : DEFAULT_PAGES,
    baseline: !argv.includes('--no-baseline'),
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 30, 3600),
  };
}

/** One Lighthouse run's figures: scores 0–100, times in ms. */
interface Sample {
  performance: number;
  accessibility: number;
  'best-practices': number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  fcpMs: number;
  /** Lighthouse's measure of this machine's CPU speed during the run (higher is faster). */
  benchmarkIndex: number;
  /** Audits of the non-performance categories that did not pass: "category: id (title)". */
  failing: string[];
}

type Figure = Exclude<keyof Sample, 'failing'>;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

async function audit(url: string, port: number): Promise<Sample> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (id: (typeof CATEGORIES)[number]) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failing: string[] = [];
  for (const id of ['accessibility', 'best-practices', 'seo'] as const) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const item = lhr.audits[ref.id];
      if (ref.weight > 0 && item && item.score !== null && item.score < 1) {
        failing.push(`${id}: ${ref.id} (${item.title})`);
      }
    }
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    seo: score('seo'),
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    tbtMs: numeric('total-blocking-time'),
    fcpMs: numeric('first-contentful-paint'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    failing,
  };
}

/**
 * Lighthouse now and then fails to record a page load (NO_NAVSTART, NO_FCP on a busy machine):
 * such a run is repeated, twice at most, and the retries are counted in the results.
 */
let retries = 0;
async function auditWithRetry(url: string, port: number): Promise<Sample> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await audit(url, port);
    } catch (error) {
      if (attempt >= 3) throw error;
      retries += 1;
      console.warn(`retrying ${url}: ${(error as Error).message}`);
    }
  }
}

function summarize(samples: Sample[]): Sample {
  const figure = (key: Figure) => median(samples.map((s) => s[key]));
  return {
    performance: figure('performance'),
    accessibility: figure('accessibility'),
    'best-practices': figure('best-practices'),
    seo: figure('seo'),
    lcpMs: figure('lcpMs'),
    cls: figure('cls'),
    tbtMs: figure('tbtMs'),
    fcpMs: figure('fcpMs'),
    benchmarkIndex: figure('benchmarkIndex'),
    failing: [...new Set(samples.flatMap((s) => s.failing))],
  };
}

/** Whether a figure meets its target (undefined: the figure has none). */
function meets(key: Figure, value: number): boolean | undefined {
  switch (key) {
    case 'performance':
      return value >= TARGET.performance;
    case 'accessibility':
      return value >= TARGET.accessibility;
    case 'seo':
      return value >= TARGET.seo;
    case 'lcpMs':
      return value <= TARGET.lcpMs;
    case 'cls':
      return value <= TARGET.cls;
    default:
      return undefined;
  }
}

const TARGET_TEXT: Partial<Record<Figure, string>> = {
  performance: `≥ ${TARGET.performance}`,
  accessibility: `≥ ${TARGET.accessibility}`,
  seo: `= ${TARGET.seo}`,
  lcpMs: `≤ ${TARGET.lcpMs} ms`,
  cls: `≤ ${TARGET.cls}`,
};

const FIGURES: { key: Figure; label: string; unit: string }[] = [
  { key: 'performance', label: 'performance', unit: '' },
  { key: 'accessibility', label: 'accessibility', unit: '' },
  { key: 'best-practices', label: 'best-practices', unit: '' },
  { key: 'seo', label: 'SEO', unit: '' },
  { key: 'lcpMs', label: 'LCP', unit: 'ms' },
  { key: 'cls', label: 'CLS', unit: '' },
  { key: 'tbtMs', label: 'TBT', unit: 'ms' },
  { key: 'fcpMs', label: 'FCP', unit: 'ms' },
];

const options = parseOptions(process.argv.slice(2));
const startedAt = Date.now();
let chrome: chromeLauncher.LaunchedChrome | undefined;
const servers: RunningServer[] = [];

async function shutdown(): Promise<void> {
  try {
    chrome?.kill();
  } catch {
    // already gone
  }
  await Promise.allSettled(servers.map((server) => server.stop()));
}

const watchdog = setTimeout(() => {
  console.error(`lighthouse bench: stopped after --max-seconds=${options.maxSeconds}`);
  void shutdown().finally(() => process.exit(3));
}, options.maxSeconds * 1000);
watchdog.unref();

try {
  if (!existsSync(`${root}web/dist/index.html`)) {
    console.log('web/dist is missing: running npm run build');
    const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  if (!existsSync(`${root}web/dist/prerendered`)) {
    console.warn('web/dist/prerendered is missing: the "prerendered" server serves the SPA shell');
  }

  const variants: { name: 'prerendered' | 'baseline'; env: Record<string, string> }[] = [
    { name: 'prerendered', env: {} },
    ...(options.baseline ? [{ name: 'baseline' as const, env: { PRERENDER: 'false' } }] : []),
  ];
  const started = await Promise.all(variants.map((variant) => startServer(variant.env)));
  servers.push(...started);

  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [...CHROMIUM_ARGS, '--headless=new'],
  });

  const results: Record<string, Record<string, Sample>> = {};
  const runs: Record<string, Record<string, Sample[]>> = {};
  for (const [index, variant] of variants.entries()) {
    const server = started[index] as RunningServer;
    results[variant.name] = {};
    runs[variant.name] = {};
    for (const page of options.pages) {
      const samples: Sample[] = [];
      for (let run = 0; run < options.runs; run += 1) {
        const sample = await auditWithRetry(`${server.url}${page}`, chrome.port);
        samples.push(sample);
        console.log(
          `${variant.name} ${page} run ${run + 1}/${options.runs}: perf ${sample.performance}, ` +
            `LCP ${Math.round(sample.lcpMs)} ms, CLS ${sample.cls.toFixed(3)}, TBT ${Math.round(sample.tbtMs)} ms ` +
            `(benchmark index ${Math.round(sample.benchmarkIndex)}, load ${loadavg()[0]?.toFixed(1)})`,
        );
      }
      (runs[variant.name] as Record<string, Sample[]>)[page] = samples;
      (results[variant.name] as Record<string, Sample>)[page] = summarize(samples);
    }
  }

  // One table per page: figure, prerendered, baseline, target.
  const rows: Row[] = [];
  const misses: string[] = [];
  for (const page of options.pages) {
    const now = results.prerendered?.[page] as Sample;
    const before = results.baseline?.[page];
    console.log(`\nLighthouse ${page} (mobile, simulated throttling, median of ${options.runs})`);
    console.table(
      FIGURES.map(({ key, label, unit }) => {
        const ok = meets(key, now[key]);
        if (ok === false) misses.push(`${page} ${label} ${now[key]}`);
        const show = (n: number | undefined) =>
          n === undefined ? '' : `${key === 'cls' ? n.toFixed(3) : Math.round(n)}${unit ? ` ${unit}` : ''}`;
        return {
          figure: label,
          prerendered: show(now[key]),
          baseline: show(before?.[key]),
          target: TARGET_TEXT[key] ?? '',
          met: ok === undefined ? '' : ok ? 'yes' : 'NO',
        };
      }),
    );
    if (now.failing.length) console.log(`  not passing: ${now.failing.join('; ')}`);
    for (const { key, label, unit } of FIGURES) {
      const ok = meets(key, now[key]);
      rows.push({
        metric: `${page} ${label}`,
        value: now[key],
        unit,
        baseline: before?.[key],
        note: TARGET_TEXT[key] ? `target ${TARGET_TEXT[key]}: ${ok ? 'met' : 'MISSED'}` : undefined,
      });
    }
  }

  report('lighthouse', rows, {
    lighthouse: (createRequire(import.meta.url)('lighthouse/package.json') as { version: string }).version,
    chromium: CHROMIUM_PATH,
    runs: options.runs,
    pages: options.pages,
    formFactor: 'mobile',
    throttling: 'simulate (Lighthouse default: slow 4G, 4x CPU slowdown)',
    baseline: 'the same build and server with PRERENDER=false (SPA shell, rendered in the browser)',
    targets: TARGET,
    cpus: availableParallelism(),
    loadAverage: loadavg(),
    seconds: Math.round((Date.now() - startedAt) / 1000),
    retries,
    results,
    runsByVariant: runs,
  });
  if (misses.length) {
    console.log(`\ntargets missed: ${misses.join(', ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nevery target met');
  }
} finally {
  clearTimeout(watchdog);
  await shutdown();
}
