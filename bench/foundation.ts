/**
 * Foundation figures: first start to a served page, idle memory, sign-in latency (argon2 cost)
 * against a cheap endpoint as the baseline, and the gzip size of the shell's initial JavaScript.
 * `--install` also times `npm install` on a fresh clone (needs the npm registry).
 *
 *   npm run bench -- foundation [--install]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { percentile, type Row, report } from './report.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const SIGNINS = 40;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

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

  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ss-bench-'));
  const url = `http://127.0.0.1:${port}`;
  const t1 = performance.now();
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLIC_URL: url },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`${url}/`);
        if (response.ok) break;
      } catch {}
      if (performance.now() - t1 > 120_000) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
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
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
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
