/** The auction bench's flags and aims. */
import { cliFlags } from '../support.ts';

export const AIMS = { bidP99Ms: 100, viewerP95Ms: 200 };

export interface Options {
  bidders: number;
  viewers: number;
  /** How long the auction runs (sudden death: the end does not move). */
  durationSec: number;
  /** Bidders per burst, and the time between bursts. */
  burst: number;
  burstEveryMs: number;
  /** Bids sent in the auction's last second, scheduled off endsAt − serverNow. */
  finalBids: number;
  /** Parallel sign-ups and card saves. */
  concurrency: number;
  databaseUrl: string;
  /** The two instances' bus: viewers on B hear A's bids through it. */
  redisUrl: string;
  maxSeconds: number;
  /** Skip the bare `ws` floor. */
  noFloor: boolean;
}

export function parseOptions(argv: string[]): Options {
  const { value, number } = cliFlags(argv);
  return {
    bidders: number('bidders', 500, 2, 5000),
    viewers: number('viewers', 2000, 2, 15_000),
    durationSec: number('duration', 30, 8, 300),
    burst: number('burst', 100, 1, 5000),
    burstEveryMs: number('burst-every', 2000, 100, 60_000),
    finalBids: number('final', 200, 0, 5000),
    concurrency: number('concurrency', 16, 1, 256),
    databaseUrl:
      value('database-url') ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: value('redis-url') ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    maxSeconds: number('max-seconds', 900, 60, 3600),
    noFloor: argv.includes('--no-floor'),
  };
}
