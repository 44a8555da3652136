/**
 * How long `eventually` keeps polling: a number is the timeout in ms; or `timeoutMs` (10 s by
 * default), `intervalMs` between tries (50 ms by default), and `retryOnError` to count an error
 * thrown by `check` as "not yet" (a server still starting) instead of ending the wait at once.
 */
export type Within = number | { timeoutMs?: number; intervalMs?: number; retryOnError?: boolean };

/** What `eventually` throws when `check` never passed: its message names `what` and the last answer. */
export class NotWithinError extends Error {
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
    /** The last value `check` answered (or the error it threw, with `retryOnError`). */
    readonly last: unknown,
  ) {
    const shown = last instanceof Error ? `threw ${last.name}: ${last.message}` : JSON.stringify(last);
    super(`${what}: not within ${timeoutMs} ms (last: ${shown})`);
    this.name = 'NotWithinError';
  }
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Polls `check` until `accept` holds for its answer, and answers it; without `accept`, until the
 * answer is truthy. Throws NotWithinError once `within` has passed (10 s by default).
 */
export async function eventually<T>(
  what: string,
  check: () => Promise<T> | T,
  within?: Within,
): Promise<Truthy<T>>;
export async function eventually<T>(
  what: string,
  check: () => Promise<T> | T,
  accept: (value: T) => boolean,
  within?: Within,
): Promise<T>;
export async function eventually<T>(
  what: string,
  check: () => Promise<T> | T,
  acceptOrWithin?: ((value: T) => boolean) | Within,
  within?: Within,
): Promise<T> {
  const accept: (value: T) => boolean = typeof acceptOrWithin === 'function' ? acceptOrWithin : Boolean;
  const limits = (typeof acceptOrWithin === 'function' ? within : acceptOrWithin) ?? 10_000;
  const {
    timeoutMs = 10_000,
    intervalMs = 50,
    retryOnError = false,
  } = typeof limits === 'number' ? { timeoutMs: limits } : limits;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: unknown;
    try {
      const value = await check();
      if (accept(value)) return value;
      last = value;
    } catch (error) {
      if (!retryOnError) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new NotWithinError(what, timeoutMs, last);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** `eventually` without `accept`, answering how long (ms) `check` took to pass. */
export async function msUntil(
  what: string,
  check: () => Promise<unknown> | unknown,
  within?: Within,
): Promise<number> {
  const start = performance.now();
  await eventually(what, check, within);
  return performance.now() - start;
}

/** `eventually` without `accept`, answering whether `check` passed in time instead of throwing. */
export async function passesWithin(
  what: string,
  check: () => Promise<unknown> | unknown,
  within?: Within,
): Promise<boolean> {
  try {
    await eventually(what, check, within);
    return true;
  } catch (error) {
    if (error instanceof NotWithinError) return false;
    throw error;
  }
}
