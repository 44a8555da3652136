import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * For the length of a scan every transition and animation is at its end: a running transition is
 * cancelled (transition-property: none jumps it to its end value, and none can start mid-scan), a
 * CSS animation lasts no time (its end state, or the element's own style where it does not fill),
 * however long the machine takes or whatever the page starts while axe reads it.
 */
const SETTLED_CSS = `*, *::before, *::after {
  transition-property: none !important;
  animation-delay: 0s !important;
  animation-duration: 0s !important;
  animation-iteration-count: 1 !important;
}`;

/**
 * Runs an axe-core scan of the page as it is now. The script is injected as an inline tag, so the
 * page's context must be opened with `bypassCSP: true` (the app's CSP allows only 'self' scripts).
 * Contrast is judged on the settled page: a button or dialog half-way through a fade would read as
 * low contrast, so the scan runs with motion at its end state (SETTLED_CSS), then puts it back.
 */
export async function scanWithAxe(page: Page): Promise<AxeViolation[]> {
  const settled = await page.addStyleTag({ content: SETTLED_CSS });
  try {
    await page.addScriptTag({ content: AXE_SOURCE });
    return await page.evaluate(async () => {
      // Script-made animations (element.animate) are not reached by CSS: end the finite ones.
      for (const animation of document.getAnimations()) {
        if (animation.effect?.getComputedTiming().activeDuration === Number.POSITIVE_INFINITY) continue;
        try {
          animation.finish();
        } catch {
          // One that cannot be finished (a playback rate of 0) is left as it is.
        }
      }
      const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe;
      const results = await axe.run(document);
      return results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
      }));
    });
  } finally {
    await settled.evaluate((style) => (style as HTMLStyleElement).remove()).catch(() => {});
  }
}

/** The violations of impact 'serious' or 'critical', formatted for an assertion message. */
export function seriousViolations(violations: AxeViolation[]): string[] {
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.join(' | ')}`);
}
