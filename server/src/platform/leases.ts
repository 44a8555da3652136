/**
 * Short leases on claimed outbox rows (webhook events, mail). A claim lasts LEASE_SEC and is
 * renewed every RENEW_EVERY_MS while its work runs, so a worker that dies (kill -9, power loss)
 * loses its claims within seconds and another instance takes them over, while a worker that is
 * slow but alive keeps them however long its work takes.
 *
 * Each claim carries a token (the row's attempt count, bumped by every claim): a renewal only
 * extends rows whose token is unchanged, so a worker that stalled past its lease learns that
 * another took the row over, and skips it rather than doing the work a second time.
 */

/** How long a claim lasts without renewal: a crashed worker's rows are free again this soon. */
export const LEASE_SEC = 5;
/** How often a working claim is renewed: three renewals per lease, so one late renewal is survived. */
export const RENEW_EVERY_MS = 1500;
/** A claim is acted on only while its lease has at least this long left; otherwise it is renewed first. */
const SAFETY_MS = 1000;

/** One claimed row: its id and the attempt count the claim wrote. */
export interface Claim {
  id: string;
  token: number;
}

/** Extends the given claims by `leaseSec` where their token is unchanged; answers the ids extended. */
export type RenewClaims = (claims: Claim[], leaseSec: number) => Promise<string[]>;

export interface HeldLeases {
  /**
   * Whether the claim is still this worker's and will stay so for a moment: true while its lease
   * was renewed recently enough; otherwise it is renewed now to find out (false when another
   * worker took it over, or the database could not be asked).
   */
  holds(id: string): Promise<boolean>;
  /** The claim's work is over (done or rescheduled): it is no longer renewed. */
  finish(id: string): Promise<void>;
  /** Stops renewing every claim; waits for a renewal under way. */
  stop(): Promise<void>;
}

/**
 * Renews `claims` every RENEW_EVERY_MS until each is finished or `stop` is called. `claimedAt` is
 * performance.now() taken before the claiming query was sent (the lease runs from no earlier).
 */
export function holdLeases(
  claims: Claim[],
  renew: RenewClaims,
  options: { claimedAt: number; onError?: (error: unknown) => void },
): HeldLeases {
  const held = new Map(claims.map((claim) => [claim.id, claim]));
  const lost = new Set<string>();
  // Until when (performance.now()) every claim still held is known to be this worker's.
  let validUntil = options.claimedAt + LEASE_SEC * 1000;
  let renewing: Promise<void> | undefined;

  const renewNow = (): Promise<void> => {
    renewing ??= (async () => {
      const batch = [...held.values()];
      if (batch.length === 0) return;
      const startedAt = performance.now();
      try {
        const extended = new Set(await renew(batch, LEASE_SEC));
        for (const claim of batch) {
          if (extended.has(claim.id) || !held.has(claim.id)) continue;
          held.delete(claim.id);
          lost.add(claim.id);
        }
        validUntil = startedAt + LEASE_SEC * 1000;
      } catch (error) {
        // The database did not answer: the claims may lapse; the next renewal finds out.
        options.onError?.(error);
      }
    })().finally(() => {
      renewing = undefined;
    });
    return renewing;
  };

  const timer = setInterval(() => void renewNow(), RENEW_EVERY_MS);
  timer.unref();
  if (held.size === 0) clearInterval(timer);
  const trusted = () => performance.now() < validUntil - SAFETY_MS;

  return {
    async holds(id) {
      if (lost.has(id) || !held.has(id)) return false;
      if (trusted()) return true;
      await renewing;
      if (!trusted()) await renewNow();
      return held.has(id) && trusted();
    },
    async finish(id) {
      // A renewal under way could extend the row after its outcome is written: let it land first.
      await renewing;
      held.delete(id);
      if (held.size === 0) clearInterval(timer);
    },
    async stop() {
      clearInterval(timer);
      held.clear();
      await renewing;
    },
  };
}
