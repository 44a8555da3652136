/** Polls `check` every 50 ms until it holds; throws after `ms` with `what` and its last answer. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T> | T,
  accept: (value: T) => boolean = Boolean,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
