/** The crowd joins (the seller's socket, then the viewers'), and the baseline: plain chat fan-out to it. */
import type WebSocket from 'ws';
import { type AppServer, fixed, joinRoom, runPool, sleep, waitFor, wallMs } from '../support.ts';
import { dist, ms } from './figures.ts';
import { type Options, VIEWER_CONCURRENCY } from './options.ts';
import type { Setup } from './setup.ts';
import { onViewerFrame, type Watch } from './watch.ts';

const wsUrl = (server: AppServer, roomName: string) =>
  `${server.base.replace('http:', 'ws:')}/ws?room=${encodeURIComponent(roomName)}`;

/** The seller's socket, then the viewers' (spread over the instances; the first carry the buyers' sessions). */
export async function joinViewers(
  options: Options,
  { instances, seller, buyers, roomName }: Setup,
  servers: AppServer[],
  w: Watch,
  sockets: WebSocket[],
  signal: AbortSignal,
) {
  const sellerErrors: Record<string, number> = {};
  const sellerSocket = await joinRoom(wsUrl(servers[0] as AppServer, roomName), {
    cookie: seller.cookie,
    onFrame: (frame) => {
      if (frame?.type === 'error') {
        const code = String(frame.code ?? 'UNKNOWN');
        sellerErrors[code] = (sellerErrors[code] ?? 0) + 1;
      }
    },
  });
  sockets.push(sellerSocket);
  const tConnect = performance.now();
  const viewerSockets = await runPool(options.viewers, VIEWER_CONCURRENCY, async (i) => {
    signal.throwIfAborted();
    const socket = await joinRoom(wsUrl(servers[i % instances] as AppServer, roomName), {
      cookie: i < buyers.length ? buyers[i]?.cookie : undefined,
      onFrame: (frame, at) => onViewerFrame(w, i, frame, at),
      onClose: () => {
        if (!w.closing) w.unexpectedCloses += 1;
      },
    });
    sockets.push(socket);
    return socket;
  });
  const connectSec = (performance.now() - tConnect) / 1000;
  const tSettle = performance.now();
  await waitFor(() => performance.now() - w.lastViewerCountAt > 1000, 60_000, 50);
  const settleSec = (performance.now() - tSettle) / 1000;
  console.log(
    `  ${viewerSockets.length} viewers in ${fixed(connectSec)} s (${w.viewerCountFrames.toLocaleString('en')} viewer_count frames; settled in ${fixed(settleSec)} s)`,
  );
  signal.throwIfAborted();
  return { sellerSocket, sellerErrors, connectSec, settleSec };
}

/** Baseline: plain chat fan-out from the seller to the same sockets. */
export async function measureChatBaseline(options: Options, w: Watch, sellerSocket: WebSocket) {
  sellerSocket.send(JSON.stringify({ type: 'chat_message', message: `warm:${wallMs()}` }));
  await sleep(1000);
  for (let k = 0; k < options.baseline; k++) {
    if (k > 0) await sleep(1000);
    const sentAt = wallMs();
    w.baselineSent[k] = sentAt;
    sellerSocket.send(JSON.stringify({ type: 'chat_message', message: `b:${k}:${sentAt.toFixed(3)}` }));
  }
  const baselineTotal = options.viewers * options.baseline;
  const baselineCount = () => w.baselineFirst.reduce((n, t) => (Number.isNaN(t) ? n : n + 1), 0);
  await waitFor(() => baselineCount() >= baselineTotal, 10_000, 50);
  const baselineSamples: number[] = [];
  for (let v = 0; v < options.viewers; v++)
    for (let k = 0; k < options.baseline; k++) {
      const t = w.baselineFirst[v * options.baseline + k] as number;
      if (!Number.isNaN(t)) baselineSamples.push(t - (w.baselineSent[k] as number));
    }
  const baseline = dist(baselineSamples);
  const baselineLost = baselineTotal - baselineSamples.length;
  console.log(`  baseline chat fan-out: ${ms(baseline)}; lost ${baselineLost}`);
  return { baseline, baselineLost };
}

export type Viewers = Awaited<ReturnType<typeof joinViewers>>;
export type ChatBaseline = Awaited<ReturnType<typeof measureChatBaseline>>;
