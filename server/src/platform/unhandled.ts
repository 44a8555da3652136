/**
 * Rejections nobody handled. Node ends the process on the first one by default; a server that
 * serves many people should log it, count it and keep serving (issue 18: an unhandled rejected
 * Redis publish ended every instance). The count is shown by /api/health.
 */
let count = 0;

export function unhandledRejections(): number {
  return count;
}

/** Installs the process-level handler; `report` logs each one. Returns the function that removes it. */
export function countUnhandledRejections(report: (reason: unknown, count: number) => void): () => void {
  const onRejection = (reason: unknown) => {
    count += 1;
    try {
      report(reason, count);
    } catch {
      // A logger that throws must not turn a logged rejection into a crash.
    }
  };
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('unhandledRejection', onRejection);
  };
}
