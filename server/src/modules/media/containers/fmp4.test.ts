import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Fmp4Error, Fmp4Reader } from './fmp4.ts';

/** Two seconds of H.264 (a keyframe every 10 frames) and AAC as ffmpeg writes the live fMP4. */
const clip = execFileSync(
  'ffmpeg',
  [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=20:d=2', '-f', 'lavfi', '-i', 'sine=d=2'],
    ...['-c:v', 'libx264', '-profile:v', 'baseline', '-g', '10', '-c:a', 'aac'],
    ...['-movflags', 'frag_every_frame+empty_moov+default_base_moof+skip_trailer', '-f', 'mp4', 'pipe:1'],
  ],
  { maxBuffer: 64 * 1024 * 1024 },
);

function readInChunks(bytes: Buffer, size: number) {
  const reader = new Fmp4Reader();
  const events = [];
  for (let at = 0; at < bytes.length; at += size) events.push(...reader.push(bytes.subarray(at, at + size)));
  return events;
}

describe('Fmp4Reader', () => {
  it('finds the init segment with its codecs, and every fragment, whatever the chunk size', () => {
    for (const size of [1, 7, 1000, clip.length]) {
      const events = readInChunks(clip, size);
      const [init, ...fragments] = events;
      expect(init).toMatchObject({ kind: 'init', codecs: ['avc1.42C00C', 'mp4a.40.2'] });
      expect(fragments.every((event) => event.kind === 'fragment')).toBe(true);
      expect(Buffer.concat(events.map((event) => event.bytes)).equals(clip)).toBe(true);
      // 40 frames, a keyframe every 10: four fragments start with a video sync sample.
      expect(fragments.filter((event) => event.kind === 'fragment' && event.keyframe)).toHaveLength(4);
    }
  });

  it('times each fragment by the video track: 40 frames at 20 fps play 2 s, audio fragments 0', () => {
    const fragments = readInChunks(clip, 4096).filter((event) => event.kind === 'fragment');
    const seconds = fragments.map((event) => (event.kind === 'fragment' ? event.seconds : -1));
    const video = seconds.filter((value) => value > 0);
    expect(video).toHaveLength(40);
    // ffmpeg stretches the first frame a little (it starts the video where the audio's priming ends).
    for (const value of video.slice(1)) expect(value).toBeCloseTo(0.05, 6);
    expect(video.reduce((sum, value) => sum + value, 0)).toBeGreaterThan(1.99);
    expect(video.reduce((sum, value) => sum + value, 0)).toBeLessThan(2.05);
  });

  it('refuses bytes that are not MP4 boxes', () => {
    expect(() => new Fmp4Reader().push(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))).toThrow(Fmp4Error);
    const webm = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7]);
    expect(() => new Fmp4Reader().push(webm)).toThrow(Fmp4Error);
  });

  it('refuses a fragment before the init segment and an absurd box size', () => {
    const moofFirst = Buffer.alloc(16);
    moofFirst.writeUInt32BE(16, 0);
    moofFirst.write('moof', 4, 'latin1');
    expect(() => new Fmp4Reader().push(moofFirst)).toThrow(/before moov/);
    const huge = Buffer.alloc(8);
    huge.writeUInt32BE(0xfffffff0, 0);
    huge.write('mdat', 4, 'latin1');
    expect(() => new Fmp4Reader().push(huge)).toThrow(/bad size/);
  });
});
