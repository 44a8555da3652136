import type { Product } from '@streamshop/contract/catalog.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import type { CheckoutAnswer, CheckoutSession } from '@streamshop/contract/payments.ts';
import { errorMessage, isUnauthorizedError, parseApiError } from '../../lib/api/client.ts';
import { isProductId } from './product-id.ts';

/** What a query looks like to the checkout page (a subset of TanStack Query's result). */
export interface QuerySnapshot<T> {
  status: 'pending' | 'error' | 'success';
  data: T | undefined;
  error: unknown;
}

/** Every screen of the checkout (spec section 2, state machine of section 4). */
export type CheckoutView =
  | { kind: 'invalid-url' }
  /** Signed out or logged out meanwhile: a toast is shown and / follows. */
  | { kind: 'signed-out' }
  | { kind: 'loading' }
  | { kind: 'not-found' }
  | { kind: 'load-failed'; message: string }
  | { kind: 'sold-out'; message: string }
  | { kind: 'setup-failed'; message: string }
  /** A product that ships, before the buyer has an address to send it to. */
  | { kind: 'address'; product: Product }
  | { kind: 'ready'; product: Product; session: CheckoutSession }
  /** The buyer paid for this moments ago and no unit is left for another: their order. */
  | { kind: 'ordered'; product: Product; order: OrderDetail };

export const SOLD_OUT_MESSAGE = 'Every unit of this product has been sold.';

export function checkoutView(input: {
  productId: string | undefined;
  signedIn: boolean;
  product: QuerySnapshot<Product>;
  session: QuerySnapshot<CheckoutAnswer>;
  /** The product ships and no address is chosen yet: no session is asked for. */
  awaitingAddress?: boolean;
}): CheckoutView {
  const { productId, signedIn, product, session } = input;
  if (!isProductId(productId)) return { kind: 'invalid-url' };
  if (!signedIn) return { kind: 'signed-out' };

  if (product.status === 'error') {
    if (isUnauthorizedError(product.error)) return { kind: 'signed-out' };
    const { status } = parseApiError(product.error);
    if (status === 404 || status === 400) return { kind: 'not-found' };
    return { kind: 'load-failed', message: errorMessage(product.error, 'Please try again.') };
  }
  if (product.status === 'pending' || !product.data) return { kind: 'loading' };
  // None left: the server is still asked, for the order of a buyer who paid for the last one
  // moments ago (it answers 409 to anyone else). Such a buyer has an address saved by that checkout,
  // so one with none to send cannot have paid.
  const soldOut = product.data.stock <= 0;
  if (input.awaitingAddress) {
    return soldOut
      ? { kind: 'sold-out', message: SOLD_OUT_MESSAGE }
      : { kind: 'address', product: product.data };
  }

  if (session.status === 'error') {
    if (isUnauthorizedError(session.error)) return { kind: 'signed-out' };
    const { status } = parseApiError(session.error);
    if (status === 404) return { kind: 'not-found' };
    if (status === 409) {
      return {
        kind: 'sold-out',
        message: soldOut ? SOLD_OUT_MESSAGE : errorMessage(session.error, SOLD_OUT_MESSAGE),
      };
    }
    return {
      kind: 'setup-failed',
      message: errorMessage(session.error, 'Secure payment could not be set up. Please try again.'),
    };
  }
  if (session.status === 'pending' || !session.data) return { kind: 'loading' };
  if ('order' in session.data) return { kind: 'ordered', product: product.data, order: session.data.order };
  // The page asks a sold-out product only for the order; a session cannot come back then.
  if (soldOut) return { kind: 'sold-out', message: SOLD_OUT_MESSAGE };
  return { kind: 'ready', product: product.data, session: session.data };
}
