import type { Product } from '@streamshop/contract/catalog.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import type { CheckoutAnswer } from '@streamshop/contract/payments.ts';
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
  /** The summary, the address (for a product that ships) and the card form; Pay opens the session. */
  | { kind: 'ready'; product: Product }
  /** The buyer paid for this moments ago and no unit is left for another: their order. */
  | { kind: 'ordered'; product: Product; order: OrderDetail };

export const SOLD_OUT_MESSAGE = 'Every unit of this product has been sold.';

export function checkoutView(input: {
  productId: string | undefined;
  signedIn: boolean;
  product: QuerySnapshot<Product>;
  /**
   * Asked only when no unit is left (POST /api/checkout/:id holds nothing then): the order of a
   * buyer who paid for the last one moments ago, or 409.
   */
  orderLookup: QuerySnapshot<CheckoutAnswer>;
  /** The answer to the buyer's Pay, when they pressed it. */
  paying?: CheckoutAnswer;
}): CheckoutView {
  const { productId, signedIn, product, orderLookup, paying } = input;
  if (!isProductId(productId)) return { kind: 'invalid-url' };
  if (!signedIn) return { kind: 'signed-out' };

  if (product.status === 'error') {
    if (isUnauthorizedError(product.error)) return { kind: 'signed-out' };
    const { status } = parseApiError(product.error);
    if (status === 404 || status === 400) return { kind: 'not-found' };
    return { kind: 'load-failed', message: errorMessage(product.error, 'Please try again.') };
  }
  if (product.status === 'pending' || !product.data) return { kind: 'loading' };
  if (paying && 'order' in paying) return { kind: 'ordered', product: product.data, order: paying.order };
  // Looking holds nothing (ADR 0006): the form shows while units are left, Pay asks for one.
  if (product.data.stock > 0 || paying) return { kind: 'ready', product: product.data };

  if (orderLookup.status === 'error') {
    if (isUnauthorizedError(orderLookup.error)) return { kind: 'signed-out' };
    const { status } = parseApiError(orderLookup.error);
    if (status === 404) return { kind: 'not-found' };
    if (status === 409) return { kind: 'sold-out', message: SOLD_OUT_MESSAGE };
    return {
      kind: 'setup-failed',
      message: errorMessage(orderLookup.error, 'Secure payment could not be set up. Please try again.'),
    };
  }
  if (orderLookup.status === 'pending' || !orderLookup.data) return { kind: 'loading' };
  if ('order' in orderLookup.data) {
    return { kind: 'ordered', product: product.data, order: orderLookup.data.order };
  }
  // A unit came back between the two answers: the form again (Pay asks once more).
  return { kind: 'ready', product: product.data };
}
