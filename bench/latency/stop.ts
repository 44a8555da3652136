/** The run's stop signal: the hard cap or a signal aborts it, and every wait wakes up and throws. */

export const stopAll = new AbortController();

export function checkNotStopped(): void {
  if (stopAll.signal.aborted) throw stopAll.signal.reason;
}

/** Sleeps, but wakes up (and throws) when the run is stopped. */
export async function wait(ms: number): Promise<void> {
  checkNotStopped();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      stopAll.signal.removeEventListener('abort', done);
      resolve();
    }
    stopAll.signal.addEventListener('abort', done, { once: true });
  });
  checkNotStopped();
}

export const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));
