/** The part of Fastify's logger a job needs. */
interface JobLog {
  warn(details: object, message: string): void;
}

/**
 * Runs `run` every `intervalMs` on this instance, never twice at once (a run still under way skips
 * the tick), logging a failure as `<name> failed` instead of throwing. The timer does not keep the
 * process alive. The returned stop clears it and waits for a run under way.
 */
export function startIntervalJob(
  name: string,
  intervalMs: number,
  log: JobLog,
  run: () => Promise<unknown>,
): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = run()
      .catch((error) => log.warn({ err: error }, `${name} failed`))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
