/** The seller pins the product, then starts the offer: request → every viewer's `shop` event. */
import { sleep, waitFor, wallMs } from '../support.ts';
import { dist, ms } from './figures.ts';
import { DEFAULTS, type Options } from './options.ts';
import { expectOk, type Setup } from './setup.ts';
import type { Watch } from './watch.ts';

export async function pinAndOffer(
  options: Options,
  { api, seller, roomName, productId }: Setup,
  w: Watch,
  signal: AbortSignal,
) {
  const shopStep = async (kind: 'pin' | 'offer', at: Float64Array, call: () => Promise<unknown>) => {
    const sentAt = wallMs();
    await call();
    const answeredAt = wallMs();
    await waitFor(() => at.every((t) => !Number.isNaN(t)), 10_000, 20);
    const got = Array.from(at).filter((t) => !Number.isNaN(t));
    const d = dist(got.map((t) => t - sentAt));
    console.log(`  ${kind}: request → every viewer ${ms(d)}; ${got.length} of ${options.viewers}`);
    return { ...d, answeredMs: answeredAt - sentAt, missing: options.viewers - got.length };
  };
  const pinFig = await shopStep('pin', w.pinAt, () =>
    expectOk(
      api.request('POST', `/api/streams/${roomName}/pins`, {
        cookie: seller.cookie,
        body: { productId },
      }),
      'pin',
    ),
  );
  let offerId = '';
  const offerFig = await shopStep('offer', w.offerAt, async () => {
    const shop = await expectOk(
      api.request('POST', `/api/streams/${roomName}/offers`, {
        cookie: seller.cookie,
        body: {
          productId,
          priceCents: DEFAULTS.offerPriceCents,
          quantity: options.offerUnits,
          durationSec: DEFAULTS.offerSeconds,
        },
      }),
      'start offer',
    );
    offerId = shop.offer?.id ?? '';
  });
  await sleep(500);
  signal.throwIfAborted();
  return { pinFig, offerFig, offerId };
}

export type ShopSteps = Awaited<ReturnType<typeof pinAndOffer>>;
