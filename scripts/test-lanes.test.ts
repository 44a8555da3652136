import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VIDEO_SPECS } from '../vitest.config.ts';
import { LANES, mergeReports } from './test-lanes.mjs';

/** `npm test`'s lanes (scripts/test-lanes.mjs, ADR 0026). */

const E2E = fileURLToPath(new URL('../e2e/', import.meta.url));
const specs = readdirSync(E2E).filter((name) => name.endsWith('.e2e.test.ts'));

describe('the browser specs that carry video', () => {
  it('are all named in VIDEO_SPECS (run after the page specs, not between them)', () => {
    // A fake camera, an encoder (ffmpeg) or the always-live demo room: video the spec waits for.
    const carriesVideo = (name: string) =>
      /camera: true|DEMO_LIVE: 'true'|ffmpeg|expectFramesAdvance/.test(readFileSync(E2E + name, 'utf8'));
    expect(specs.filter(carriesVideo).sort()).toEqual([...VIDEO_SPECS].sort());
  });

  it('run in the browser lane, after the page specs, beside every other project', () => {
    expect(LANES).toEqual([
      ['--project', '!e2e*'],
      ['--project', 'e2e', '--project', 'e2e-video'],
    ]);
  });
});

describe('mergeReports', () => {
  const report = (name: string, passed: number, failed: number, startTime: number, success: boolean) => ({
    numTotalTests: passed + failed,
    numPassedTests: passed,
    numFailedTests: failed,
    startTime,
    success,
    testResults: [{ name, startTime, endTime: startTime + 10 }],
  });

  it('adds up the counts, keeps every file and the earliest start', () => {
    const merged = mergeReports([report('a', 3, 0, 200, true), report('b', 2, 0, 100, true)]);
    expect(merged).toMatchObject({
      numTotalTests: 5,
      numPassedTests: 5,
      numFailedTests: 0,
      startTime: 100,
      success: true,
    });
    expect(merged.testResults.map((result: { name: string }) => result.name)).toEqual(['a', 'b']);
  });

  it('is a failure when any lane failed', () => {
    expect(mergeReports([report('a', 3, 0, 1, true), report('b', 1, 1, 2, false)]).success).toBe(false);
    expect(mergeReports([report('a', 1, 1, 1, false), report('b', 1, 0, 2, true)]).success).toBe(false);
  });
});
