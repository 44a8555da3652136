/**
 * The loopback baseline, before going live: one page records the fake camera with the app's
 * MediaRecorder settings and appends the chunks straight into MSE in the same page, with the
 * player's live-edge rule: the floor of record → MSE playback with no network and no server.
 */

import { loopbackPage, type ProbeState, readProbe, waitForDecodedFrame } from './probe.ts';
import type { Rig } from './setup.ts';
import { wait } from './stop.ts';

export interface Loopback {
  state: ProbeState;
  status: unknown;
  fromAt: number;
  toAt: number;
}

export async function measureLoopback(rig: Rig, seconds: number): Promise<Loopback> {
  const watched = await rig.open([
    { name: 'preview', selector: '#preview' },
    { name: 'playback', selector: '#playback' },
  ]);
  const url = `${rig.base}/__latency-bench/loopback`;
  await watched.page.route(url, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: loopbackPage() }),
  );
  await watched.page.goto(url);
  await waitForDecodedFrame(watched.page, 'playback', 15_000);
  await wait(2000);
  const fromAt = Date.now();
  await wait(seconds * 1000);
  const toAt = Date.now();
  const loopback = {
    state: await readProbe(watched.page),
    status: await watched.page.evaluate(() => (window as unknown as { __loopback: unknown }).__loopback),
    fromAt,
    toAt,
  };
  await watched.close();
  console.log(`  baseline (loopback) recorded for ${seconds} s`);
  return loopback;
}
