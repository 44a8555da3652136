import { describe, expect, it } from 'vitest';
import { parsePlaylist } from '../../pipeline/playlist.ts';
import { PART_TARGET_SEC } from '../../pipeline/segmenter.ts';
import {
  type EdgeModel,
  type EdgePart,
  type EdgeSegment,
  holds,
  openSequence,
  renderLowLatency,
  tooFarAhead,
} from './ll-playlist.ts';

/**
 * ADR 0024: the low-latency live playlist rendered from the live edge (RFC 8216bis: EXT-X-PART,
 * EXT-X-PRELOAD-HINT, EXT-X-SERVER-CONTROL), and the two questions a blocking reload asks of it:
 * does it hold the segment or part asked for yet, and is that too far ahead to wait for.
 */

const part = (uri: string, seconds: number, independent = false): EdgePart => ({ uri, seconds, independent });
/** A segment of run `run` cut into four parts (0.3, 0.3, 0.3, 0.1 s), the first independent. */
const partsOf = (run: string, segment: number) =>
  [0.3, 0.3, 0.3, 0.1].map((seconds, index) =>
    part(`${run}-seg-0000${segment}-p${index}.m4s`, seconds, index === 0),
  );
const segment = (run: string, n: number, extra: Partial<EdgeSegment> = {}): EdgeSegment => ({
  uri: `${run}-seg-0000${n}.m4s`,
  duration: 1,
  map: `${run}-init.mp4`,
  discontinuity: false,
  ...extra,
});

/**
 * A window of five segments from media sequence 40: two of run `a`, then three of run `b` (a
 * discontinuity), the last two with their parts; segment 45 is being written (two parts so far).
 */
function edge(overrides: Partial<EdgeModel> = {}): EdgeModel {
  return {
    sequence: 40,
    discontinuitySequence: 3,
    segments: [
      segment('a', 7, { discontinuity: true }),
      segment('a', 8),
      segment('b', 0, { discontinuity: true, duration: 1.02135 }),
      segment('b', 1, { parts: partsOf('b', 1) }),
      segment('b', 2, { parts: partsOf('b', 2) }),
    ],
    open: { map: 'b-init.mp4', discontinuity: false, parts: partsOf('b', 3).slice(0, 2) },
    hint: 'b-seg-00003-p2.m4s',
    ...overrides,
  };
}

const lines = (text: string) => text.split('\n').filter(Boolean);
const attribute = (line: string | undefined, name: string) =>
  new RegExp(`[:,]${name}=("[^"]*"|[^,]*)`).exec(line ?? '')?.[1]?.replace(/^"|"$/g, '');

describe('renderLowLatency', () => {
  const text = renderLowLatency(edge());
  const all = lines(text);

  it('offers blocking reloads and parts: SERVER-CONTROL, PART-INF, version and sequences', () => {
    expect(all[0]).toBe('#EXTM3U');
    expect(text.endsWith('\n')).toBe(true);
    expect(all).toContain('#EXT-X-VERSION:7'); // EXT-X-PART needs no higher; 7 is what MAP with fMP4 needs
    const control = all.find((line) => line.startsWith('#EXT-X-SERVER-CONTROL:'));
    expect(attribute(control, 'CAN-BLOCK-RELOAD')).toBe('YES');
    const info = all.find((line) => line.startsWith('#EXT-X-PART-INF:'));
    const partTarget = Number(attribute(info, 'PART-TARGET'));
    expect(partTarget).toBeCloseTo(PART_TARGET_SEC, 6);
    // RFC 8216bis 4.4.3.8: PART-HOLD-BACK at least twice the part target (three is advised).
    expect(Number(attribute(control, 'PART-HOLD-BACK'))).toBeGreaterThanOrEqual(2 * partTarget);
    expect(all).toContain('#EXT-X-MEDIA-SEQUENCE:40');
    expect(all).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:3');
    // The longest segment (1.02 s) rounds to 1; never 0.
    expect(all).toContain('#EXT-X-TARGETDURATION:1');
    expect(all).not.toContain('#EXT-X-ENDLIST');
    // Every tag before the first segment's lines.
    expect(all.findIndex((line) => line.startsWith('#EXT-X-PART-INF'))).toBeLessThan(
      all.findIndex((line) => line.startsWith('#EXTINF')),
    );
  });

  it('lists each part before its segment, INDEPENDENT only where a part starts with a keyframe', () => {
    const partLines = all.filter((line) => line.startsWith('#EXT-X-PART:'));
    const expected = [...partsOf('b', 1), ...partsOf('b', 2), ...partsOf('b', 3).slice(0, 2)];
    expect(partLines.map((line) => attribute(line, 'URI'))).toEqual(expected.map((p) => p.uri));
    for (const [index, line] of partLines.entries()) {
      const want = expected[index] as EdgePart;
      expect(Number(attribute(line, 'DURATION'))).toBeCloseTo(want.seconds, 4);
      expect(attribute(line, 'INDEPENDENT')).toBe(want.independent ? 'YES' : undefined);
    }
    // Segment b-1's parts come after segment b-0's URI and before its own EXTINF and URI.
    const at = (needle: string) => all.findIndex((line) => line.includes(needle));
    expect(at('b-seg-00000.m4s')).toBeLessThan(at('b-seg-00001-p0.m4s'));
    expect(at('b-seg-00001-p3.m4s')).toBeLessThan(all.indexOf('b-seg-00001.m4s'));
    expect(all[all.indexOf('b-seg-00001.m4s') - 1]).toMatch(/^#EXTINF:1(\.0+)?,$/);
    // The open segment's parts follow the last whole segment; they have no EXTINF of their own.
    expect(at('b-seg-00002.m4s')).toBeLessThan(at('b-seg-00003-p0.m4s'));
    expect(all.filter((line) => line.startsWith('#EXTINF'))).toHaveLength(5);
    // Segments without parts listed have no EXT-X-PART lines.
    expect(text).not.toContain('a-seg-00008-p');
  });

  it('ends with the preload hint of the next part', () => {
    expect(all.at(-1)).toBe('#EXT-X-PRELOAD-HINT:TYPE=PART,URI="b-seg-00003-p2.m4s"');
    expect(all.filter((line) => line.startsWith('#EXT-X-PRELOAD-HINT'))).toHaveLength(1);
  });

  it('marks discontinuities inside the window (not the first segment’s) and maps each run', () => {
    const maps = all.filter((line) => line.startsWith('#EXT-X-MAP'));
    expect(maps).toEqual(['#EXT-X-MAP:URI="a-init.mp4"', '#EXT-X-MAP:URI="b-init.mp4"']);
    expect(all.filter((line) => line === '#EXT-X-DISCONTINUITY')).toHaveLength(1);
    const discontinuity = all.indexOf('#EXT-X-DISCONTINUITY');
    expect(all.slice(discontinuity + 1, discontinuity + 3)).toEqual([
      '#EXT-X-MAP:URI="b-init.mp4"',
      '#EXTINF:1.02135,',
    ]);
    expect(all.indexOf('#EXT-X-MAP:URI="a-init.mp4"')).toBeLessThan(all.indexOf('#EXTINF:1.00000,'));
    // What a plain (segment-only) reader makes of it: the same segments, maps and discontinuity.
    const plain = parsePlaylist(text);
    expect(plain.sequence).toBe(40);
    expect(plain.discontinuitySequence).toBe(3);
    expect(plain.ended).toBe(false);
    expect(plain.segments).toEqual(
      edge().segments.map(({ parts: _parts, ...s }, index) => ({
        ...s,
        discontinuity: s.discontinuity && index > 0,
      })),
    );
  });

  it('starts a new run’s open segment with a discontinuity and its map', () => {
    const model = edge({
      open: { map: 'c-init.mp4', discontinuity: true, parts: [part('c-seg-00000-p0.m4s', 0.3, true)] },
      hint: 'c-seg-00000-p1.m4s',
    });
    const after = lines(renderLowLatency(model));
    const last = after.indexOf('b-seg-00002.m4s');
    expect(after.slice(last + 1)).toEqual([
      '#EXT-X-DISCONTINUITY',
      '#EXT-X-MAP:URI="c-init.mp4"',
      '#EXT-X-PART:DURATION=0.30000,URI="c-seg-00000-p0.m4s",INDEPENDENT=YES',
      '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="c-seg-00000-p1.m4s"',
    ]);
  });

  it('renders an edge with no whole segment yet: the map, the parts and the hint', () => {
    const model = edge({
      sequence: 0,
      discontinuitySequence: 0,
      segments: [],
      open: { map: 'a-init.mp4', discontinuity: true, parts: [] },
      hint: 'a-seg-00000-p0.m4s',
    });
    const only = lines(renderLowLatency(model));
    expect(only).not.toContain('#EXT-X-DISCONTINUITY');
    expect(only.filter((line) => line.startsWith('#EXTINF'))).toEqual([]);
    expect(only.slice(-2)).toEqual([
      '#EXT-X-MAP:URI="a-init.mp4"',
      '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="a-seg-00000-p0.m4s"',
    ]);
    expect(only).toContain('#EXT-X-TARGETDURATION:1');
  });
});

describe('blocking reloads: holds and tooFarAhead', () => {
  const model = edge(); // segments 40–44 whole, 45 open with parts 0 and 1
  const open = openSequence(model);

  it('counts the open segment after the listed ones', () => {
    expect(open).toBe(45);
  });

  it('holds every listed segment, and the open one’s parts made so far', () => {
    expect(holds(model, 40, undefined)).toBe(true);
    expect(holds(model, 44, undefined)).toBe(true);
    expect(holds(model, 44, 9)).toBe(true); // a whole segment holds whatever part of it
    expect(holds(model, 12, undefined)).toBe(true); // long gone: nothing to wait for
    expect(holds(model, open, 0)).toBe(true);
    expect(holds(model, open, 1)).toBe(true);
    expect(holds(model, open, 2)).toBe(false); // the hint: not made yet
    expect(holds(model, open, undefined)).toBe(false); // the whole open segment: not yet
    expect(holds(model, open + 1, undefined)).toBe(false);
    expect(holds(model, open + 1, 0)).toBe(false);
  });

  it('holds part 0 of the open segment only once it is made', () => {
    const fresh = edge({ open: { map: 'b-init.mp4', discontinuity: false, parts: [] } });
    expect(holds(fresh, open, 0)).toBe(false);
    expect(holds(fresh, open - 1, undefined)).toBe(true);
  });

  it('refuses a segment more than two past the last whole one', () => {
    const lastWhole = open - 1;
    expect(tooFarAhead(model, lastWhole, undefined)).toBe(false);
    expect(tooFarAhead(model, lastWhole + 1, undefined)).toBe(false);
    expect(tooFarAhead(model, lastWhole + 2, undefined)).toBe(false);
    expect(tooFarAhead(model, lastWhole + 3, undefined)).toBe(true);
    expect(tooFarAhead(model, lastWhole + 3, 0)).toBe(true);
    expect(tooFarAhead(model, 999_999_999, undefined)).toBe(true);
    expect(tooFarAhead(model, 0, undefined)).toBe(false);
  });

  it('refuses a part more than the advance part limit (3 s of parts) past the last one', () => {
    const limit = Math.ceil(3 / PART_TARGET_SEC); // RFC 8216bis 6.2.5.2, for a part target under 1 s
    const lastPart = model.open.parts.length - 1;
    expect(tooFarAhead(model, open, lastPart + 1)).toBe(false); // the hint
    expect(tooFarAhead(model, open, lastPart + limit)).toBe(false);
    expect(tooFarAhead(model, open, lastPart + limit + 1)).toBe(true);
    // The next segment's first parts are near; far into it is not.
    expect(tooFarAhead(model, open + 1, 0)).toBe(false);
    expect(tooFarAhead(model, open + 1, 50)).toBe(true);
  });
});
