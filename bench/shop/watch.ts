/** What each viewer socket received, and when: the raw material of the shop bench's figures. */
import type { Account, RoomFrame } from '../support.ts';
import type { Options } from './options.ts';

export interface Watch {
  productId: string;
  /** Stock values 0 … stock. */
  levels: number;
  /** First receive time (wallMs) of each stock value at each viewer: [viewer * levels + stock]. */
  stockFirst: Float64Array;
  /** The last stock value each viewer received (levels before the first). */
  lastStock: Int32Array;
  stockFrames: number;
  stockRepeats: number;
  /** Stock events with a value above the one the viewer had before (a stale event after a newer one). */
  stockBackwards: number;
  backwardsExamples: Array<{ viewer: number; from: number; to: number; at: number }>;
  /** Every stock value viewers 0 and 1 (one per instance with two) received, with its time. */
  sequences: Array<Array<[number, number]>>;
  viewersBackwards: Uint8Array;
  stockNegative: number;
  offerRemainingMin: number;
  offerRemainingNegative: number;
  lastStockAt: number;
  /** First receive time of each buyer's purchase line: [viewer * buyers + buyer]. */
  lineFirst: Float64Array;
  lineFrames: number;
  lineUnmatched: number;
  buyerByHandle: Map<string, number>;
  buyers: number;
  /** Baseline chat: first receive time of message k at each viewer: [viewer * baseline + k]; send times. */
  baselineFirst: Float64Array;
  baselineSent: number[];
  baseline: number;
  pinAt: Float64Array;
  offerAt: Float64Array;
  frames: number;
  viewerCountFrames: number;
  lastViewerCountAt: number;
  badFrames: number;
  errors: Record<string, number>;
  unexpectedCloses: number;
  closing: boolean;
}

export function newWatch(options: Options, productId: string, buyers: Account[]): Watch {
  const levels = options.stock + 1;
  return {
    productId,
    levels,
    stockFirst: new Float64Array(options.viewers * levels).fill(Number.NaN),
    lastStock: new Int32Array(options.viewers).fill(levels),
    stockFrames: 0,
    stockRepeats: 0,
    stockBackwards: 0,
    backwardsExamples: [],
    sequences: [[], []],
    viewersBackwards: new Uint8Array(options.viewers),
    stockNegative: 0,
    offerRemainingMin: Number.POSITIVE_INFINITY,
    offerRemainingNegative: 0,
    lastStockAt: 0,
    lineFirst: new Float64Array(options.viewers * buyers.length).fill(Number.NaN),
    lineFrames: 0,
    lineUnmatched: 0,
    buyerByHandle: new Map(buyers.map((b, i) => [b.handle, i])),
    buyers: buyers.length,
    baselineFirst: new Float64Array(options.viewers * options.baseline).fill(Number.NaN),
    baselineSent: [],
    baseline: options.baseline,
    pinAt: new Float64Array(options.viewers).fill(Number.NaN),
    offerAt: new Float64Array(options.viewers).fill(Number.NaN),
    frames: 0,
    viewerCountFrames: 0,
    lastViewerCountAt: 0,
    badFrames: 0,
    errors: {},
    unexpectedCloses: 0,
    closing: false,
  };
}

export function onViewerFrame(w: Watch, viewer: number, frame: RoomFrame | undefined, at: number): void {
  w.frames += 1;
  if (!frame) {
    w.badFrames += 1;
    return;
  }
  switch (frame.type) {
    case 'stock': {
      if (frame.productId !== w.productId) return;
      const stock = Number(frame.stock);
      w.stockFrames += 1;
      w.lastStockAt = Math.max(w.lastStockAt, at);
      if (typeof frame.offerRemaining === 'number') {
        w.offerRemainingMin = Math.min(w.offerRemainingMin, frame.offerRemaining);
        if (frame.offerRemaining < 0) w.offerRemainingNegative += 1;
      }
      if (!Number.isInteger(stock) || stock < 0 || stock >= w.levels) {
        w.stockNegative += 1;
        return;
      }
      if (stock > (w.lastStock[viewer] ?? w.levels) && (w.lastStock[viewer] ?? w.levels) < w.levels) {
        w.stockBackwards += 1;
        w.viewersBackwards[viewer] = 1;
        if (w.backwardsExamples.length < 10)
          w.backwardsExamples.push({ viewer, from: w.lastStock[viewer] ?? -1, to: stock, at });
      }
      if (viewer < 2) w.sequences[viewer]?.push([stock, at]);
      w.lastStock[viewer] = stock;
      const i = viewer * w.levels + stock;
      if (Number.isNaN(w.stockFirst[i] ?? 0)) w.stockFirst[i] = at;
      else w.stockRepeats += 1;
      return;
    }
    case 'chat_message': {
      const text = typeof frame.message === 'string' ? frame.message : '';
      if (frame.kind === 'purchase') {
        w.lineFrames += 1;
        const buyer = w.buyerByHandle.get(/^@(\S+) just bought /.exec(text)?.[1] ?? '');
        if (buyer === undefined) {
          w.lineUnmatched += 1;
          return;
        }
        const i = viewer * w.buyers + buyer;
        if (Number.isNaN(w.lineFirst[i] ?? 0)) w.lineFirst[i] = at;
        return;
      }
      const [tag, seqText] = text.split(':');
      const seq = Number(seqText);
      if (tag !== 'b' || !(seq >= 0 && seq < w.baseline)) return;
      const i = viewer * w.baseline + seq;
      if (Number.isNaN(w.baselineFirst[i] ?? 0)) w.baselineFirst[i] = at;
      return;
    }
    case 'shop': {
      const shop = frame.shop as { pinned?: string[]; offer?: { productId?: string } | null } | undefined;
      if (shop?.offer?.productId === w.productId) {
        if (Number.isNaN(w.offerAt[viewer] ?? 0)) w.offerAt[viewer] = at;
      } else if (shop?.pinned?.includes(w.productId) && Number.isNaN(w.pinAt[viewer] ?? 0)) {
        w.pinAt[viewer] = at;
      }
      return;
    }
    case 'viewer_count':
      w.viewerCountFrames += 1;
      w.lastViewerCountAt = performance.now();
      return;
    case 'error': {
      const code = typeof frame.code === 'string' ? frame.code : 'UNKNOWN';
      w.errors[code] = (w.errors[code] ?? 0) + 1;
      return;
    }
  }
}
