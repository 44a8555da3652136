/** The checkout bench's hard cap: every request and every wait listens to this signal. */

export const stopAll = new AbortController();

export function checkNotStopped(): void {
  if (stopAll.signal.aborted) throw stopAll.signal.reason;
}
