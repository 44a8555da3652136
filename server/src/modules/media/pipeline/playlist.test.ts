import { describe, expect, it } from 'vitest';
import { dropOldest, type Playlist, parsePlaylist, renderPlaylist } from './playlist.ts';

const segment = (part: string, n: number, discontinuity = false) => ({
  uri: `${part}-seg-${n}.m4s`,
  duration: 1.001,
  map: `${part}-init.mp4`,
  discontinuity,
});

const twoParts: Playlist = {
  ended: false,
  segments: [segment('a', 0), segment('a', 1), segment('a', 2), segment('b', 0, true), segment('b', 1)],
};

describe('stream playlists', () => {
  it('lists every part with its init segment and a discontinuity between parts; EVENT, then VOD', () => {
    const live = renderPlaylist(twoParts);
    expect(live).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(live).not.toContain('#EXT-X-ENDLIST');
    expect(live.match(/#EXT-X-MAP:URI="a-init.mp4"/g)).toHaveLength(1);
    expect(live.indexOf('#EXT-X-DISCONTINUITY')).toBeLessThan(live.indexOf('#EXT-X-MAP:URI="b-init.mp4"'));
    const replay = renderPlaylist({ ...twoParts, ended: true });
    expect(replay).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(replay.trim().endsWith('#EXT-X-ENDLIST')).toBe(true);
    expect(parsePlaylist(replay)).toEqual({ ...twoParts, ended: true });
  });

  it('renders a live window that counts what it left out', () => {
    const window = renderPlaylist(twoParts, 2);
    expect(window).toContain('#EXT-X-MEDIA-SEQUENCE:3');
    expect(window).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:1');
    expect(window).toContain('#EXT-X-MAP:URI="b-init.mp4"');
    expect(window).not.toContain('a-seg');
    expect(window).not.toContain('#EXT-X-PLAYLIST-TYPE');
  });

  it('keeps counting media sequence numbers after older segments were dropped', () => {
    const pruned = renderPlaylist(
      { ended: false, sequence: 40, segments: [segment('a', 40), segment('a', 41)] },
      1,
    );
    expect(pruned).toContain('#EXT-X-MEDIA-SEQUENCE:41');
    expect(
      parsePlaylist(renderPlaylist({ ended: false, sequence: 40, segments: [segment('a', 40)] })).sequence,
    ).toBe(40);
  });

  it('keeps a live window that reads the same after its oldest segments are dropped, and after a reload', () => {
    const long: Playlist = {
      ended: false,
      segments: [
        segment('a', 0),
        segment('a', 1),
        segment('b', 0, true),
        segment('b', 1),
        segment('c', 0, true),
        segment('c', 1),
      ],
    };
    for (const keep of [5, 4, 3, 2, 1]) {
      const window = structuredClone(long);
      const before = renderPlaylist(long, keep);
      expect(dropOldest(window, keep)).toHaveLength(long.segments.length - keep);
      expect(renderPlaylist(window, keep)).toBe(before);
      // What another instance reads back from storage renders the same window again.
      expect(renderPlaylist(parsePlaylist(before), keep)).toBe(before);
    }
    const window = structuredClone(long);
    dropOldest(window, 3);
    expect(window).toMatchObject({ sequence: 3, discontinuitySequence: 1 });
    expect(dropOldest(window, 3)).toEqual([]);
  });

  it('writes and reads the sealed chunks before an open part’s tail, and only when there are some', () => {
    const tail: Playlist = {
      ended: false,
      sequence: 120,
      chunks: 2,
      segments: [segment('a', 120), segment('a', 121)],
    };
    const text = renderPlaylist(tail, tail.segments.length);
    expect(text).toContain(
      '#EXT-X-MEDIA-SEQUENCE:120\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n#EXT-X-STREAMSHOP-CHUNKS:2\n',
    );
    expect(text).not.toContain('#EXT-X-PLAYLIST-TYPE');
    expect(text.indexOf('#EXT-X-STREAMSHOP-CHUNKS')).toBeLessThan(text.indexOf('#EXTINF'));
    expect(parsePlaylist(text)).toEqual(tail);
    // No chunks yet: no tag, and none read.
    const first = renderPlaylist({ ended: false, segments: [segment('a', 0)] });
    expect(first).not.toContain('STREAMSHOP');
    expect(parsePlaylist(first)).not.toHaveProperty('chunks');
  });

  it('reads ffmpeg’s own playlist and skips what it does not know', () => {
    const ffmpeg = [
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-TARGETDURATION:1',
      '#EXT-X-MAP:URI="init.mp4"',
      '#EXTINF:1.045000,',
      'seg-00000.m4s',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-26T00:00:00Z',
      '#EXTINF:0.932000,',
      'seg-00001.m4s',
    ].join('\n');
    expect(parsePlaylist(ffmpeg).segments.map((s) => [s.uri, s.duration, s.map])).toEqual([
      ['seg-00000.m4s', 1.045, 'init.mp4'],
      ['seg-00001.m4s', 0.932, 'init.mp4'],
    ]);
  });
});
