import { describe, expect, it } from 'vitest';
import { memoryBus } from '../../../../platform/bus.ts';
import type { Storage } from '../../../../platform/storage.ts';
import { LiveEdges } from './edges.ts';
import type { EdgeModel } from './ll-playlist.ts';

/** A storage whose writes wait until `release()`: a slow or unreachable S3. */
function stalledStorage() {
  const waiting: Array<() => void> = [];
  const puts: string[] = [];
  const storage = {
    location: 'stalled',
    async put(key: string) {
      puts.push(key);
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    get: async () => undefined,
    delete: async () => {},
    deleteMany: async () => {},
    list: async () => [],
  } as unknown as Storage;
  const release = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  return { storage, puts, release };
}

const edgeWith = (parts: number): EdgeModel => ({
  sequence: 0,
  discontinuitySequence: 0,
  segments: [],
  open: {
    map: 'run-init.mp4',
    discontinuity: false,
    parts: Array.from({ length: parts }, (_, n) => ({
      uri: `run-seg-00000-p${n}.m4s`,
      seconds: 0.3,
      independent: n === 0,
    })),
  },
  hint: `run-seg-00000-p${parts}.m4s`,
});

describe('LiveEdges with storage that stops answering', () => {
  it('keeps serving new parts from memory, queues at most 16 sends, and says so once', async () => {
    const { storage, puts, release } = stalledStorage();
    const warnings: string[] = [];
    const edges = new LiveEdges(memoryBus(), storage, { warn: (_object, message) => warnings.push(message) });
    const sink = edges.sink('stalled-room');
    for (let n = 1; n <= 40; n += 1) {
      sink.update(edgeWith(n), [
        { name: `run-seg-00000-p${n - 1}.m4s`, bytes: Buffer.from(`part ${n - 1}`) },
      ]);
    }
    await new Promise((resolve) => setImmediate(resolve));
    // Only the first write reached storage; the rest wait behind it or were not queued.
    expect(puts).toHaveLength(1);
    expect(warnings).toEqual(['publishing the live edge failed; told again once it works']);
    // The publisher's own viewers still get every part and the newest edge.
    expect(String(await edges.file('stalled-room', 'run-seg-00000-p39.m4s', 0))).toBe('part 39');
    expect((await edges.edge('stalled-room'))?.open.parts).toHaveLength(40);
    // Storage answers again: what was queued goes out (16 sends, not 40), and close() returns.
    for (let round = 0; round < 20 && puts.length < 16; round += 1) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    release();
    await edges.close();
    expect(puts).toHaveLength(16);
  });
});
