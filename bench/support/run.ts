/**
 * A bench run's frame: the hard cap (the run's signal, which every request and wait listens to),
 * the end of the run (its storage dropped, its time said) and the exit code.
 */
import { rmSync } from 'node:fs';
import type { AppServer } from './app-server.ts';
import { fixed } from './helpers.ts';
import type { Storage } from './storage.ts';

/**
 * After `maxSeconds`, aborts `stopAll`. Should the orderly stop hang, ends for sure 30 s later:
 * kills the servers `leftovers()` names, removes the storage's DATA_DIR, exit code 3. Answers a
 * function that clears the cap.
 */
export function startHardCap(
  name: string,
  maxSeconds: number,
  stopAll: AbortController,
  leftovers: () => { servers: AppServer[]; storage: Storage | undefined },
): () => void {
  const timer = setTimeout(() => {
    console.error(`!! ${name}: the hard cap of ${maxSeconds} s is reached; stopping`);
    stopAll.abort(new Error(`hard cap of ${maxSeconds} s reached`));
    setTimeout(() => {
      const { servers, storage } = leftovers();
      for (const s of servers) s.proc.kill('SIGKILL');
      if (storage) rmSync(storage.dataDir, { recursive: true, force: true });
      process.exit(3);
    }, 30_000).unref();
  }, maxSeconds * 1000);
  timer.unref();
  return () => clearTimeout(timer);
}

/** The end of a run, however it went: its storage dropped (a failure is only said), and how long it took. */
export async function finishRun(name: string, started: number, storage: Storage | undefined): Promise<void> {
  await storage?.drop().catch((error) => console.error(`could not drop the run's database: ${error}`));
  console.log(`${name}: done in ${fixed((performance.now() - started) / 1000)} s`);
}

/** Runs a bench's main: exit code 1 when it answers false (an invariant broke) or throws, 3 when the hard cap stopped it. */
export async function runBench(
  name: string,
  stopAll: AbortController,
  main: () => Promise<boolean>,
): Promise<void> {
  try {
    if (!(await main())) process.exitCode = 1;
  } catch (error) {
    console.error(stopAll.signal.aborted ? `${name}: stopped: ${stopAll.signal.reason}` : error);
    process.exitCode = stopAll.signal.aborted ? 3 : 1;
  }
}
