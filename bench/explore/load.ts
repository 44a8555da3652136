/** The load generator: autocannon in a worker thread, one warm-up run and one measured run. */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface LoadJob {
  url: string;
  connections: number;
  warmupSec: number;
  durationSec: number;
}

export interface RunStats {
  /** Responses by status code. */
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Responses whose status was not 200. */
  not200: number;
}

export interface LoadResult {
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
export function load(job: LoadJob): Promise<LoadResult> {
  const autocannonPath = createRequire(import.meta.url).resolve('autocannon');
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER_SOURCE, { eval: true, workerData: { autocannonPath, job } });
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load worker exited with code ${code} before answering`)));
  });
}
