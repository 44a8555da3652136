import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { split } from '../../../../test/chunks.ts';
import { WebmSplitter } from '../../containers/webm-splitter.ts';
import { decodeRelayEvent, encodeRelayEvent } from '../../relay-events.ts';
import { RoomRelay } from './relay.ts';

// 3.5 s of real Chromium MediaRecorder output (VP8 + Opus, 100 ms timeslice, keyframe every 1 s),
// with the sizes of the chunks it was delivered in.
const fixture = readFileSync(
  new URL('../../containers/fixtures/mediarecorder-vp8-opus.webm', import.meta.url),
);
const chunkSizes: number[] = JSON.parse(
  readFileSync(
    new URL('../../containers/fixtures/mediarecorder-vp8-opus.chunks.json', import.meta.url),
    'utf8',
  ),
);

describe('RoomRelay', () => {
  /** A viewer's socket; its pings are answered when `pong()` is called (as a browser's after the data before them). */
  function fakeViewer() {
    const received: Array<Buffer | string> = [];
    const pongListeners = new Set<() => void>();
    let pings = 0;
    const socket = {
      OPEN: 1,
      readyState: 1,
      bufferedAmount: 0,
      send(data: Buffer | string) {
        received.push(typeof data === 'string' ? data : Buffer.from(data));
      },
      ping() {
        pings += 1;
      },
      on(event: string, listener: () => void) {
        if (event === 'pong') pongListeners.add(listener);
      },
      off(event: string, listener: () => void) {
        if (event === 'pong') pongListeners.delete(listener);
      },
    };
    return {
      socket: socket as unknown as WebSocket & { bufferedAmount: number },
      received,
      pings: () => pings,
      pong: () => {
        for (const listener of pongListeners) listener();
      },
    };
  }

  function decodes(bytes: Buffer): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'ss-relay-'));
    const file = path.join(dir, 'joined.webm');
    writeFileSync(file, bytes);
    return execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
  }

  /** A relay fed by a publisher's splitter, as on the publisher's instance. */
  function publishedRelay() {
    const relay = new RoomRelay();
    const splitter = new WebmSplitter();
    relay.apply({ kind: 'reset', mimeType: 'video/webm;codecs=vp8,opus' });
    return {
      relay,
      push(chunk: Buffer) {
        for (const event of splitter.push(chunk)) relay.apply(event);
      },
    };
  }

  it('starts a late joiner at the latest keyframe with a stream a decoder plays without errors', () => {
    const { relay, push } = publishedRelay();
    const chunks = split(fixture, chunkSizes);
    for (const c of chunks.slice(0, 20)) push(c);
    const viewer = fakeViewer();
    relay.addViewer(viewer.socket);
    for (const c of chunks.slice(20)) push(c);
    expect(JSON.parse(String(viewer.received[0]))).toEqual({
      type: 'media_reset',
      mimeType: 'video/webm;codecs=vp8,opus',
    });
    const bytes = Buffer.concat(viewer.received.slice(1).map((b) => b as Buffer));
    expect(bytes.length).toBeLessThan(fixture.length); // it did not get the whole history
    expect(decodes(bytes)).toBe('');
  });

  it('skips a viewer that falls behind to the next keyframe instead of queueing without bound', () => {
    const { relay, push } = publishedRelay();
    const chunks = split(fixture, chunkSizes);
    const viewer = fakeViewer();
    relay.addViewer(viewer.socket);
    for (const c of chunks.slice(0, 8)) push(c);
    const before = viewer.received.length;
    viewer.socket.bufferedAmount = 10 * 1024 * 1024; // a slow network
    for (const c of chunks.slice(8, 12)) push(c);
    expect(viewer.received.length).toBe(before);
    viewer.socket.bufferedAmount = 0;
    for (const c of chunks.slice(12)) push(c);
    const resumed = viewer.received.slice(before) as Buffer[];
    expect(resumed.length).toBeGreaterThan(0);
    // It resumes at a Cluster start followed by a keyframe, so the decoder can continue.
    expect(resumed[0]?.subarray(0, 4).equals(Buffer.from([0x1f, 0x43, 0xb6, 0x75]))).toBe(true);
  });

  it('skips a viewer whose ping goes unanswered for 2 s, and starts it again at a keyframe once it answers', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const relay = new RoomRelay();
      relay.apply({ kind: 'reset', mimeType: 'video/mp4' });
      relay.apply({ kind: 'init', bytes: Buffer.from('init') });
      const slow = fakeViewer();
      const quick = fakeViewer();
      relay.addViewer(slow.socket);
      relay.addViewer(quick.socket);
      /** One second of stream: a keyframe, then appends; `quick` answers its pings at once. */
      const second = (n: number) => {
        relay.apply({ kind: 'group', start: [], keyframe: Buffer.from(`key-${n}`) });
        quick.pong();
        for (let i = 0; i < 3; i += 1) relay.apply({ kind: 'append', bytes: Buffer.from(`frame-${n}-${i}`) });
        vi.advanceTimersByTime(1000);
      };
      const media = (viewer: ReturnType<typeof fakeViewer>) =>
        viewer.received.filter((r): r is Buffer => typeof r !== 'string').map(String);
      for (let n = 0; n < 3; n += 1) second(n);
      // Unanswered since second 0: at second 3 it is over 2 s late and gets nothing more.
      second(3);
      second(4);
      expect(media(slow)).not.toContain('key-3');
      expect(media(slow)).not.toContain('frame-4-0');
      expect(slow.pings()).toBe(1);
      // Its backlog reached it: it starts again at the next keyframe, not in the middle of a group.
      slow.pong();
      for (let i = 0; i < 2; i += 1) relay.apply({ kind: 'append', bytes: Buffer.from(`frame-x-${i}`) });
      second(5);
      const after = media(slow).slice(media(slow).indexOf('frame-2-2') + 1);
      expect(after[0]).toBe('key-5');
      expect(media(quick)).toContain('key-4');
      expect(media(quick)).toContain('frame-4-2');
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives another instance the same picture from a snapshot and the live events after it', () => {
    const { relay, push } = publishedRelay();
    const chunks = split(fixture, chunkSizes);
    for (const c of chunks.slice(0, 20)) push(c);
    const snapshot = relay.snapshot();
    if (!snapshot) throw new Error('no snapshot');
    // Across the wire and back, as another instance receives it.
    const received = decodeRelayEvent(encodeRelayEvent(snapshot, 'instance-a'));
    expect(received?.sender).toBe('instance-a');
    const mirror = new RoomRelay();
    const viewer = fakeViewer();
    mirror.addViewer(viewer.socket);
    if (received) mirror.apply(received.event);
    const splitter = new WebmSplitter();
    // The publisher's events after the snapshot, re-derived here from the same bytes.
    const events = chunks.flatMap((c) => splitter.push(c));
    const skip = new WebmSplitter();
    const seen = chunks.slice(0, 20).flatMap((c) => skip.push(c)).length;
    for (const event of events.slice(seen))
      mirror.apply(decodeRelayEvent(encodeRelayEvent(event, 'a'))?.event ?? event);
    const texts = viewer.received.filter((r) => typeof r === 'string').map((r) => JSON.parse(String(r)).type);
    expect(texts).toEqual(['media_idle', 'media_reset']);
    const bytes = Buffer.concat(viewer.received.filter((r): r is Buffer => typeof r !== 'string'));
    expect(bytes.length).toBeLessThan(fixture.length);
    expect(decodes(bytes)).toBe('');
  });

  it('decodes no malformed relay frame', () => {
    expect(decodeRelayEvent(Buffer.alloc(0))).toBeUndefined();
    expect(decodeRelayEvent(Buffer.from([200, 0, 0, 0, 1, 65]))).toBeUndefined();
    expect(decodeRelayEvent(Buffer.from([1, 0, 0, 0, 9, 65]))).toBeUndefined();
    expect(decodeRelayEvent(encodeRelayEvent({ kind: 'idle' }, 'x'))).toEqual({
      sender: 'x',
      event: { kind: 'idle' },
    });
  });

  it('tells viewers when nothing is published', () => {
    const relay = new RoomRelay();
    const viewer = fakeViewer();
    relay.addViewer(viewer.socket);
    expect(viewer.received).toEqual([JSON.stringify({ type: 'media_idle' })]);
  });
});
