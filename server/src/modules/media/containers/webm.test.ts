import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { split } from '../../../test/chunks.ts';
import { WebmError, type WebmEvent, WebmReader } from './webm.ts';

// 3.5 s of real Chromium MediaRecorder output (VP8 + Opus, 100 ms timeslice, keyframe every 1 s),
// with the sizes of the chunks it was delivered in.
const fixture = readFileSync(new URL('./fixtures/mediarecorder-vp8-opus.webm', import.meta.url));
const chunkSizes: number[] = JSON.parse(
  readFileSync(new URL('./fixtures/mediarecorder-vp8-opus.chunks.json', import.meta.url), 'utf8'),
);

function readAll(chunks: Buffer[]): WebmEvent[] {
  const reader = new WebmReader();
  return chunks.flatMap((chunk) => reader.push(chunk));
}

const describeEvents = (events: WebmEvent[]) =>
  events.map((e) => (e.kind === 'block' ? `${e.kind}:${e.track}:${e.keyframe}` : e.kind)).join(' ');

describe('WebmReader on real MediaRecorder output', () => {
  const events = readAll(split(fixture, chunkSizes));

  it('passes every byte through once, in order', () => {
    expect(Buffer.concat(events.map((e) => e.bytes)).equals(fixture)).toBe(true);
  });

  it('finds the init segment with the video track, then clusters and blocks', () => {
    expect(events[0]?.kind).toBe('init');
    expect(events[0]?.kind === 'init' && events[0].videoTrack).toBe(1);
    expect(events.filter((e) => e.kind === 'init')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'cluster').length).toBeGreaterThan(5);
  });

  it('flags a video keyframe about every second', () => {
    const videoKeyframes = events.filter((e) => e.kind === 'block' && e.track === 1 && e.keyframe);
    expect(videoKeyframes.length).toBeGreaterThanOrEqual(3);
    expect(videoKeyframes.length).toBeLessThanOrEqual(5);
    const firstBlock = events.find((e) => e.kind === 'block' && e.track === 1);
    expect(firstBlock?.kind === 'block' && firstBlock.keyframe).toBe(true);
  });

  it('gives the same events however the bytes are split', () => {
    const expected = describeEvents(events);
    expect(describeEvents(readAll(split(fixture, new Array(fixture.length).fill(1))))).toBe(expected);
    expect(describeEvents(readAll(split(fixture, new Array(200).fill(777))))).toBe(expected);
  });

  it('rejects bytes that are not WebM', () => {
    expect(() => new WebmReader().push(Buffer.from('GET / HTTP/1.1\r\n\r\n'))).toThrow(WebmError);
    expect(() => new WebmReader().push(Buffer.from([0x00, 0x00, 0x00, 0x00]))).toThrow(WebmError);
  });
});
