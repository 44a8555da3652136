/**
 * A clock that runs with real time but can be moved ahead, for limits and expiries a test wants
 * to see lapse without sleeping.
 */
export function movableClock() {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
}
