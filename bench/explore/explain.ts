/** The optional plans (--explain): every SQL statement a request sends, explained and timed. */
import type { Database } from '../../server/src/test/support.ts';
import { percentile } from '../report.ts';
import type { Endpoint } from './endpoints.ts';

export interface Explained {
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
export async function explainEndpoint(
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

/** Explains every endpoint but the floor, printing each statement's plan; the JSON's `plans`. */
export async function explainAll(
  app: import('fastify').FastifyInstance,
  database: Database,
  endpoints: Endpoint[],
): Promise<Record<string, Array<{ ms: number; explainMs: number; sql: string }>>> {
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
  return plans;
}
