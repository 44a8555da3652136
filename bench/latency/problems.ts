/** A page's errors worth reporting: everything but the signed-out auth probe's expected 401. */

import type { WatchedPage } from '../../e2e/browser.ts';

export function problemsOf(watched: WatchedPage): string[] {
  return watched.problems
    .filter((p) => !(p.kind === 'console' && /status of 401/.test(p.text) && /\/api\/auth\/user/.test(p.url)))
    .map((p) => `[${p.kind}] ${p.text.slice(0, 300)}`);
}
