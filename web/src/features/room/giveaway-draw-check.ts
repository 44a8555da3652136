import { drawIndex, drawOrder, type Giveaway, seedHashOf } from '@streamshop/contract/giveaways.ts';

/** What recomputing the draw in this browser found. */
export interface DrawCheck {
  ok: boolean;
  text: string;
}

/**
 * Recomputes a drawn giveaway from what was published: the seed must hash to the `seedHash`
 * shown since the start, and `drawIndex` over the sorted entrants must pick the winner shown.
 * Nothing here trusts the server's word for the winner.
 */
export async function checkDraw(
  giveaway: Pick<Giveaway, 'seed' | 'seedHash' | 'entrants' | 'winner'>,
): Promise<DrawCheck> {
  const { seed, seedHash, entrants, winner } = giveaway;
  if (seed === null || entrants === null) {
    return { ok: false, text: 'The seed and the entrants are published when the winner is drawn.' };
  }
  // SHA-256 in the browser (crypto.subtle) exists only on https and localhost.
  if (!globalThis.crypto?.subtle) {
    return {
      ok: false,
      text: 'This browser cannot compute SHA-256 on this page: open it over https to check.',
    };
  }
  const hash = await seedHashOf(seed);
  if (hash !== seedHash.toLowerCase()) {
    return { ok: false, text: `Mismatch: the seed hashes to ${hash}, not to the published ${seedHash}.` };
  }
  if (entrants.length === 0) {
    return winner
      ? { ok: false, text: `Mismatch: nobody entered, yet @${winner.handle} is shown as the winner.` }
      : { ok: true, text: 'Verified: the seed matches its hash; nobody entered, so nobody won' };
  }
  const order = drawOrder(entrants);
  const picked = order[await drawIndex(seed, order)];
  if (picked !== winner?.handle) {
    const shown = winner ? `@${winner.handle}` : 'nobody';
    return { ok: false, text: `Mismatch: the seed picks @${picked}, but the winner shown is ${shown}.` };
  }
  return { ok: true, text: `Verified: the seed matches its hash and picks @${picked}` };
}
