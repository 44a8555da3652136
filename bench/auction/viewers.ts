/**
 * The auction bench's viewers (this process): room sockets split over the instances, and when each
 * viewer got each auction_bid (by the auction's version), against the message's serverNow. The
 * floor's viewers are the same code on the floor's relayed copies of the same messages.
 */
import type WebSocket from 'ws';
import { percentile } from '../report.ts';
import { closeSockets, joinRoom, type RoomFrame, runPool } from '../support.ts';

/** One auction_bid version as the viewers got it. */
export interface Heard {
  serverNowMs: number;
  /** Per viewer: when it got it (wall clock), NaN until then. */
  receipts: Float64Array;
  count: number;
}

export interface Audience {
  sockets: WebSocket[];
  /** The instance (0, 1) each viewer is on. */
  instanceOf: Uint8Array;
  heard: Map<number, Heard>;
  /** Every auction_bid frame viewer 0 got, duplicates included: when (wall clock) and its text (the floor replays it). */
  timeline: Array<{ at: number; text: string }>;
  duplicates: number;
  /** auction_ended frames (one auction: sent at the close and again once paid). */
  endedFrames: number;
  errors: Record<string, number>;
  unexpectedCloses: number;
  closing: boolean;
  /** Called with the auction of every version's first delivery (the bidders' view of the room). */
  onNewVersion?: (auction: { version: number; minNextBidCents: number }) => void;
}

type BidFrame = RoomFrame & { serverNow?: string; auction?: { version?: number; minNextBidCents?: number } };

function onFrame(audience: Audience, viewer: number, frame: RoomFrame | undefined, at: number): void {
  if (!frame) {
    audience.errors.BAD_FRAME = (audience.errors.BAD_FRAME ?? 0) + 1;
    return;
  }
  if (frame.type === 'auction_ended') audience.endedFrames += 1;
  if (frame.type === 'error') {
    const code = String(frame.code ?? 'UNKNOWN');
    audience.errors[code] = (audience.errors[code] ?? 0) + 1;
  }
  if (frame.type !== 'auction_bid') return;
  const { auction, serverNow } = frame as BidFrame;
  const version = auction?.version;
  if (typeof version !== 'number' || typeof serverNow !== 'string') return;
  if (viewer === 0) audience.timeline.push({ at, text: JSON.stringify(frame) });
  let heard = audience.heard.get(version);
  if (!heard) {
    heard = {
      serverNowMs: Date.parse(serverNow),
      receipts: new Float64Array(audience.instanceOf.length).fill(Number.NaN),
      count: 0,
    };
    audience.heard.set(version, heard);
    audience.onNewVersion?.({ version, minNextBidCents: auction?.minNextBidCents ?? 0 });
  }
  // Two bids may publish the same view (both read it after the second commit): keep the first.
  if (!Number.isNaN(heard.receipts[viewer] ?? 0)) {
    audience.duplicates += 1;
    return;
  }
  heard.receipts[viewer] = at;
  heard.count += 1;
}

/** `count` viewers on `urls` (viewer i on urls[i % urls.length]), 64 joining at a time. */
export async function joinViewers(urls: string[], count: number): Promise<Audience> {
  const audience: Audience = {
    sockets: [],
    instanceOf: Uint8Array.from({ length: count }, (_, i) => i % urls.length),
    heard: new Map(),
    timeline: [],
    duplicates: 0,
    endedFrames: 0,
    errors: {},
    unexpectedCloses: 0,
    closing: false,
  };
  audience.sockets = await runPool(count, 64, (i) =>
    joinRoom(urls[audience.instanceOf[i] ?? 0] as string, {
      onFrame: (frame, at) => onFrame(audience, i, frame, at),
      onClose: () => {
        if (!audience.closing) audience.unexpectedCloses += 1;
      },
    }),
  );
  return audience;
}

export async function closeViewers(audience: Audience | undefined): Promise<void> {
  if (!audience) return;
  audience.closing = true;
  await closeSockets(audience.sockets);
}

/** Every viewer has every version heard so far. */
export const allDelivered = (audience: Audience) =>
  [...audience.heard.values()].every((h) => h.count === audience.instanceOf.length);

export interface FanoutFigures {
  messages: number;
  expected: number;
  delivered: number;
  lost: number;
  duplicates: number;
  /** serverNow of the message → each viewer's receipt (ms). */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  p95ByInstance: number[];
  /** Per message: serverNow → its last viewer (the whole room told). */
  lastViewerP50: number;
  lastViewerP95: number;
  /** Leading bids (201): request sent → each viewer's receipt of the version the answer carried. */
  sentToViewerP50: number;
  sentToViewerP95: number;
  sentToViewerP99: number;
}

/** The figures of every delivery; `sentAtByVersion`: the send time of the bid whose 201 carried that version. */
export function fanoutFigures(
  audience: Audience,
  sentAtByVersion = new Map<number, number>(),
): FanoutFigures {
  const viewers = audience.instanceOf.length;
  const all: number[] = [];
  const byInstance: number[][] = [[], []];
  const last: number[] = [];
  const sentTo: number[] = [];
  for (const [version, heard] of audience.heard) {
    let latest = Number.NaN;
    const sentAt = sentAtByVersion.get(version);
    for (let v = 0; v < viewers; v++) {
      const at = heard.receipts[v] ?? Number.NaN;
      if (Number.isNaN(at)) continue;
      const ms = at - heard.serverNowMs;
      all.push(ms);
      byInstance[audience.instanceOf[v] ?? 0]?.push(ms);
      if (!(at <= latest)) latest = at;
      if (sentAt !== undefined) sentTo.push(at - sentAt);
    }
    if (heard.count === viewers) last.push(latest - heard.serverNowMs);
  }
  all.sort((a, b) => a - b);
  const expected = audience.heard.size * viewers;
  return {
    messages: audience.heard.size,
    expected,
    delivered: all.length,
    lost: expected - all.length,
    duplicates: audience.duplicates,
    p50: percentile(all, 50),
    p95: percentile(all, 95),
    p99: percentile(all, 99),
    max: all[all.length - 1] ?? Number.NaN,
    p95ByInstance: byInstance.map((s) => percentile(s, 95)),
    lastViewerP50: percentile(last, 50),
    lastViewerP95: percentile(last, 95),
    sentToViewerP50: percentile(sentTo, 50),
    sentToViewerP95: percentile(sentTo, 95),
    sentToViewerP99: percentile(sentTo, 99),
  };
}
