/** The chat bench's verdicts (against the target), its summary table, its rows and its JSON. */
import { availableParallelism, loadavg } from 'node:os';
import { type Row, report } from '../report.ts';
import { fixed, sum } from '../support.ts';
import { type Options, TARGET } from './options.ts';
import type { ScenarioResult } from './scenarios.ts';

/** Judges every scenario against the target (the floors are the baseline), prints and writes the report. */
export function judgeAndReport(
  options: Options,
  results: ScenarioResult[],
  skipped: Record<string, string>,
  loadAverageBefore: number[],
): void {
  const atTarget = options.viewers >= TARGET.viewers && options.rate >= TARGET.rate;
  const floor = results.find((r) => r.key === 'floor');
  const verdicts: Record<string, string> = {};
  const rows: Row[] = [];
  for (const r of results) {
    const isApp = !r.key.startsWith('floor');
    const base = isApp ? floor : undefined;
    const vs = (pick: (x: ScenarioResult) => number) => (base ? { baseline: pick(base) } : {});
    const name = r.label;
    let verdict = '';
    if (isApp) {
      const met = r.p95 <= TARGET.p95 && r.p99 <= TARGET.p99 && r.lost === 0;
      verdict =
        `${met ? 'met' : 'MISSED'}: p95 ${fixed(r.p95)} ≤ ${TARGET.p95}, p99 ${fixed(r.p99)} ≤ ${TARGET.p99}, ` +
        `lost ${r.lost} = 0` +
        (atTarget ? '' : ` (the target is set at ${TARGET.viewers} viewers × ${TARGET.rate}/s)`);
      verdicts[r.key] = verdict;
    }
    rows.push({ metric: `${name}: p50`, value: r.p50, unit: 'ms', ...vs((x) => x.p50) });
    rows.push({
      metric: `${name}: p95`,
      value: r.p95,
      unit: 'ms',
      ...vs((x) => x.p95),
      note:
        (isApp ? `target ≤ ${TARGET.p95} ms` : '') +
        (r.instances > 1 ? `; by instance ${r.p95ByInstance.map((p) => fixed(p)).join(' / ')} ms` : ''),
    });
    rows.push({
      metric: `${name}: p99`,
      value: r.p99,
      unit: 'ms',
      ...vs((x) => x.p99),
      ...(isApp ? { note: `target ≤ ${TARGET.p99} ms` } : {}),
    });
    rows.push({ metric: `${name}: max`, value: r.max, unit: 'ms', ...vs((x) => x.max) });
    rows.push({
      metric: `${name}: send → server timestamp p50 / p95`,
      value: r.acceptP50,
      unit: 'ms',
      ...vs((x) => x.acceptP50),
      note: `p95 ${fixed(r.acceptP95)} ms (baseline ${fixed(base?.acceptP95 ?? Number.NaN)}); ms resolution; app: the accepted time, the database's now() in the sender-standing query (before: the row's created_at, the insert's)`,
    });
    rows.push({
      metric: `${name}: deliveries/s`,
      value: r.deliveriesPerSec,
      unit: '/s',
      ...vs((x) => x.deliveriesPerSec),
      note: `${r.delivered.toLocaleString('en')} of ${r.expected.toLocaleString('en')} (${r.messages} messages × ${r.viewers} viewers)`,
    });
    rows.push({
      metric: `${name}: lost`,
      value: r.lost,
      unit: '',
      note:
        `duplicates ${r.duplicates}, sockets closed ${r.unexpectedCloses}` +
        (Object.keys(r.errors).length ? `, errors ${JSON.stringify(r.errors)}` : ''),
    });
    rows.push({
      metric: `${name}: server CPU`,
      value: sum(r.serverCpuPct),
      unit: '%',
      ...vs((x) => sum(x.serverCpuPct)),
      note: `${r.instances > 1 ? `A ${fixed(r.serverCpuPct[0] ?? 0, 0)}% + B ${fixed(r.serverCpuPct[1] ?? 0, 0)}%; ` : ''}of one core, clients ${fixed(r.loadGeneratorCpuPct, 0)}%`,
    });
    rows.push({
      metric: `${name}: server CPU per 1,000 deliveries`,
      value: r.serverCpuMsPer1k,
      unit: 'ms',
      ...vs((x) => x.serverCpuMsPer1k),
      note: 'CPU time, not wall time: the figure least skewed by other load on the machine',
    });
    if (r.writeLoad) {
      const w = r.writeLoad;
      rows.push({
        metric: `${name}: write load commit p50`,
        value: w.commitP50,
        unit: 'ms',
        note: `p95 ${fixed(w.commitP95)} ms; ${w.commits} commits of ${w.rowsPerCommit} rows of 2 kB on ${w.connections} connections, ${fixed(w.mbPerSec, 0)} MB/s of rows, during the measured run`,
      });
    }
    rows.push({
      metric: `${name}: server RSS peak`,
      value: sum(r.serverRssPeakMb),
      unit: 'MB',
      ...vs((x) => sum(x.serverRssPeakMb)),
      note: `before the viewers joined ${r.serverRssIdleMb.map((m) => fixed(m, 0)).join(' + ')} MB`,
    });
    rows.push({
      metric: `${name}: connect ${r.viewers} viewers`,
      value: r.connectSec,
      unit: 's',
      ...vs((x) => x.connectSec),
      note: `to chat_history, 64 at a time; ${r.viewerCountFramesOnConnect.toLocaleString('en')} viewer_count frames, quiet after ${fixed(r.settleSec)} s more`,
    });
  }
  for (const [key, reason] of Object.entries(skipped))
    rows.push({ metric: `${key}: skipped`, value: Number.NaN, unit: '', note: reason.slice(0, 200) });

  console.log('\nsummary');
  console.table(
    results.map((r) => ({
      scenario: r.label,
      'p50 ms': fixed(r.p50),
      'p95 ms': fixed(r.p95),
      'p99 ms': fixed(r.p99),
      'max ms': fixed(r.max),
      'to server p50/p95 ms': `${fixed(r.acceptP50)}/${fixed(r.acceptP95)}`,
      'deliveries/s': Math.round(r.deliveriesPerSec),
      lost: r.lost,
      'server CPU %': r.serverCpuPct.map((c) => fixed(c, 0)).join('+'),
      'CPU ms/1k deliveries': fixed(r.serverCpuMsPer1k, 2),
      'server RSS MB': r.serverRssPeakMb.map((m) => fixed(m, 0)).join('+'),
      'clients CPU %': fixed(r.loadGeneratorCpuPct, 0),
      'connect s': fixed(r.connectSec),
      'write load commit p50/p95 ms': r.writeLoad
        ? `${fixed(r.writeLoad.commitP50)}/${fixed(r.writeLoad.commitP95)}`
        : '',
    })),
  );

  const name =
    options.viewers === TARGET.viewers && options.rate === TARGET.rate
      ? 'chat'
      : `chat-${options.viewers}v-${options.rate}mps`;
  report(name, rows, {
    options,
    machine: { cpus: availableParallelism(), loadAverageBefore, loadAverageAfter: loadavg() },
    target: TARGET,
    latency:
      'receive time − send time (performance.timeOrigin + performance.now(), both in the client process), ' +
      'exact percentiles over every delivery of the measured run',
    cpu: 'server CPU from /proc/<pid>/stat over the measured run (sends + drain), % of one core, all threads of the process; Redis and PostgreSQL servers not included',
    verdicts,
    skipped,
    results,
  });
  console.log(`\nverdicts: ${JSON.stringify(verdicts, null, 1)}`);
}
