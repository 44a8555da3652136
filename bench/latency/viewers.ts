/**
 * The steady viewers: one signed-out viewer per delivery path, each in its own context, opened
 * together on the live room; each logs the frames it shows until the window is read.
 */

import type { Page } from 'playwright-core';
import type { WatchedPage } from '../../e2e/browser.ts';
import type { ViewerPath } from './paths.ts';
import { LIVE_VIDEO, type ProbeState, readProbe, waitForDecodedFrame } from './probe.ts';
import { problemsOf } from './problems.ts';
import type { Rig } from './setup.ts';
import { checkNotStopped } from './stop.ts';

export interface ViewerRun {
  path: ViewerPath;
  /** Wall time just before page.goto. */
  gotoAt: number;
  /** goto → first decoded frame, seen from this process (NaN: none in time). */
  firstFrameMs: number;
  error?: string;
  /** The video's data-path and data-engine at the end ('' when absent). */
  dataPath: string;
  dataEngine: string;
  state?: ProbeState;
  problems: string[];
}

/** The live video's data-path and data-engine now ('' when absent; 'no video' when there is no such element). */
export async function videoPathOf(page: Page): Promise<{ path: string; engine: string }> {
  return page
    .evaluate((selector) => {
      const video = document.querySelector<HTMLVideoElement>(selector);
      if (!video) return { path: 'no video', engine: '' };
      return { path: video.dataset.path ?? '', engine: video.dataset.engine ?? '' };
    }, LIVE_VIDEO)
    .catch((error) => ({ path: `? (${errorText(error)})`, engine: '' }));
}

export interface OpenViewer {
  run: ViewerRun;
  watched: WatchedPage;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error));

/** Opens the room on every path at once; a path that shows no frame in time is recorded, not fatal. */
export async function openViewers(rig: Rig, roomPath: string, paths: ViewerPath[]): Promise<OpenViewer[]> {
  return Promise.all(
    paths.map(async (path) => {
      const watched = await rig.open([{ name: 'live', selector: LIVE_VIDEO }]);
      const run: ViewerRun = {
        path,
        gotoAt: Date.now(),
        firstFrameMs: Number.NaN,
        dataPath: '',
        dataEngine: '',
        problems: [],
      };
      try {
        await watched.page.goto(`${roomPath}${path.query}`);
        await waitForDecodedFrame(watched.page, 'live', path.firstFrameTimeoutMs);
        run.firstFrameMs = Date.now() - run.gotoAt;
      } catch (error) {
        checkNotStopped();
        run.error = errorText(error);
      }
      console.log(
        `  viewer ${path.label}: ${run.error ? `no frame (${run.error})` : `first frame ${run.firstFrameMs} ms after goto`}`,
      );
      return { run, watched };
    }),
  );
}

/** Reads every viewer's log, the video's path attributes and the page's errors, then closes it. */
export async function closeViewers(viewers: OpenViewer[]): Promise<ViewerRun[]> {
  return Promise.all(
    viewers.map(async ({ run, watched }) => {
      run.state = await readProbe(watched.page).catch(() => undefined);
      const { path, engine } = await videoPathOf(watched.page);
      run.dataPath = path;
      run.dataEngine = engine;
      run.problems = problemsOf(watched);
      await watched.close();
      return run;
    }),
  );
}
