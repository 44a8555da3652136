import { ConfigError } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { isQueryError, serializeError } from '../db/query-errors.ts';

/** A bad command line: the message and the usage are printed, exit code 2. */
export class UsageError extends Error {}

/**
 * Runs a command-line entry point: exit 0 when it finishes, 2 with the usage for a UsageError,
 * 1 otherwise (configuration and locked-data-dir errors print just their message).
 */
export function runCli(main: () => Promise<void>, usage: string, failure: string): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(`${error.message}\n${usage}`);
        process.exit(2);
      }
      if (error instanceof ConfigError || error instanceof DataDirLockedError) {
        console.error(error.message);
      } else {
        // A failed query is printed without its parameters (emails in an export, say).
        console.error(`${failure}:`, isQueryError(error) ? serializeError(error) : error);
      }
      process.exit(1);
    },
  );
}
