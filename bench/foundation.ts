/**
 * Foundation figures: first start to a served page, idle memory, sign-in latency (argon2 cost)
 * against a cheap endpoint as the baseline, and the gzip size of the shell's initial JavaScript.
 * `--install` also times `npm install` on a fresh clone (needs the npm registry).
 *
 *   npm run bench -- foundation [--install]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startServerProcess } from '../server/src/test/support.ts';
import { percentile, type Row, report } from './report.ts';
import { rssMb } from './support.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const SIGNINS = 40;

async function timeRequest(url: string, init?: RequestInit): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

function initialScriptGzipBytes(): { raw: number; gzip: number } {
  const dist = path.join(root, 'web', 'dist');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = new Set<string>();
  for (const match of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/assets\/[^"]+\.js)"/g)) {
    if (match[1]) files.add(match[1]);
  }
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(path.join(dist, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

async function main() {
  const rows: Row[] = [];

  if (process.argv.includes('--install')) {
    const clone = mkdtempSync(path.join(tmpdir(), 'ss-clone-'));
    execFileSync('git', ['clone', '-q', root, clone]);
    const t0 = performance.now();
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: clone, stdio: 'ignore' });
    rows.push({ metric: 'npm install (fresh clone)', value: (performance.now() - t0) / 1000, unit: 's' });
    rmSync(clone, { recursive: true, force: true });
  }

  const tb = performance.now();
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  rows.push({ metric: 'web build (part of npm start)', value: (performance.now() - tb) / 1000, unit: 's' });

  const t1 = performance.now();
  const server = await startServerProcess({
    env: { SEED_DEMO: 'true', DEMO_LIVE: 'false' },
    readyTimeoutMs: 120_000,
    stdio: 'ignore',
  });
  const url = server.url;
  try {
    const page = await fetch(`${url}/`);
    if (!page.ok) throw new Error(`GET / answered ${page.status}`);
    rows.push({
      metric: 'first start to served page (fresh DATA_DIR: migrate + seed)',
      value: (performance.now() - t1) / 1000,
      unit: 's',
    });

    await new Promise((r) => setTimeout(r, 3000));
    rows.push({
      metric: 'idle server RSS (main process incl. PGlite worker)',
      value: rssMb(server.pid ?? 0),
      unit: 'MB',
    });

    const headers = { 'content-type': 'application/json', origin: url };
    const account = {
      firstName: 'Bench',
      lastName: 'Mark',
      handle: 'bench_user',
      email: 'bench@example.com',
      password: 'bench-password',
    };
    await fetch(`${url}/api/auth/signup`, { method: 'POST', headers, body: JSON.stringify(account) });
    const health: number[] = [];
    const signins: number[] = [];
    for (let i = 0; i < SIGNINS; i++) {
      health.push(await timeRequest(`${url}/api/health`));
      signins.push(
        await timeRequest(`${url}/api/auth/signin`, {
          method: 'POST',
          headers: { ...headers, 'x-bench': String(i) },
          body: JSON.stringify({ handle: account.handle, password: account.password }),
        }),
      );
      // stay under the per-handle throttle (10 per 10 minutes) by signing up fresh handles
      if (i % 9 === 8) {
        account.handle = `bench_user_${i}`;
        account.email = `bench_${i}@example.com`;
        await fetch(`${url}/api/auth/signup`, { method: 'POST', headers, body: JSON.stringify(account) });
      }
    }
    rows.push({
      metric: `sign-in p50 (n=${SIGNINS})`,
      value: percentile(signins, 50),
      unit: 'ms',
      baseline: percentile(health, 50),
      note: 'baseline: GET /api/health p50',
    });
    rows.push({
      metric: 'sign-in p95',
      value: percentile(signins, 95),
      unit: 'ms',
      baseline: percentile(health, 95),
    });
  } finally {
    await server.stop();
  }

  const js = initialScriptGzipBytes();
  rows.push({
    metric: 'initial JS of the shell (gzip)',
    value: js.gzip / 1024,
    unit: 'KiB',
    note: `raw ${(js.raw / 1024).toFixed(1)} KiB`,
  });
  report('foundation', rows);
}

await main();
