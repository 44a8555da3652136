/**
 * `npm test` after the build: the suite in two lanes at once (ADR 0026, docs/benchmarks.md "The
 * test suite"): every project but the browser specs (two workers), and beside it the browser specs
 * one file at a time, those that drive pages first and those that carry live video after them.
 *
 * Together the lanes fill the two cores where either alone left one of them half idle.
 * Arguments (a file, `--project x`, `-t name`) run one plain `vitest run` with them instead.
 * TEST_TIMINGS_FILE: each lane's JSON report, merged into that one file.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The two lanes, run at once (project names are vitest.config.ts's). */
export const LANES = [
  ['--project', '!e2e*'],
  ['--project', 'e2e', '--project', 'e2e-video'],
];

const VITEST = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

const running = new Set();

/**
 * One `vitest run`. Beside another lane its output is read line by line and written whole, so the
 * two reports interleave by line and never mid-line (and neither redraws a terminal's summary).
 */
function vitest(args, { alone, timingsFile }) {
  const env = { ...process.env };
  if (timingsFile) env.TEST_TIMINGS_FILE = timingsFile;
  else delete env.TEST_TIMINGS_FILE;
  if (!alone && process.stdout.isTTY) env.FORCE_COLOR ??= '1';
  const child = spawn(process.execPath, [VITEST, 'run', ...args], {
    env,
    stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  if (!alone) {
    createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${line}\n`));
    createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${line}\n`));
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Vitest's JSON reports of several runs as one: every file's results, the counts added up. */
export function mergeReports(reports) {
  const merged = { ...reports[0], testResults: [] };
  for (const key of Object.keys(merged)) if (typeof merged[key] === 'number') merged[key] = 0;
  for (const report of reports) {
    for (const [key, value] of Object.entries(report)) if (typeof value === 'number') merged[key] += value;
    merged.testResults.push(...report.testResults);
    merged.success = merged.success !== false && report.success;
  }
  merged.startTime = Math.min(...reports.map((report) => report.startTime));
  return merged;
}

async function main() {
  const args = process.argv.slice(2);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      for (const child of running) child.kill(signal);
      process.exit(1);
    });
  }
  const timings = process.env.TEST_TIMINGS_FILE;
  if (args.length > 0) return vitest(args, { alone: true, timingsFile: timings });

  const laneFiles = timings ? LANES.map((_, index) => `${timings}.lane-${index}.json`) : [];
  const codes = await Promise.all(
    LANES.map((lane, index) => vitest(lane, { alone: false, timingsFile: laneFiles[index] })),
  );
  if (timings) {
    const reports = laneFiles.flatMap((file) => {
      try {
        return [JSON.parse(readFileSync(file, 'utf8'))];
      } catch {
        return []; // a lane that ran no file wrote none
      }
    });
    if (reports.length > 0) writeFileSync(timings, JSON.stringify(mergeReports(reports)));
    for (const file of laneFiles) rmSync(file, { force: true });
  }
  return codes.some((code) => code !== 0) ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main();
