import type { CheckoutAnswer, CheckoutSession } from '@streamshop/contract/payments.ts';
import type { ShippingAddress } from '@streamshop/contract/shipping.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiPost } from './api/client.ts';

/** What POST /api/checkout/:id takes besides the product: where it is bought from, and the address. */
export interface CheckoutBody {
  roomName?: string;
  showBuyer?: boolean;
  shippingAddress?: ShippingAddress;
}

const checkoutUrl = (productId: string) => `/api/checkout/${encodeURIComponent(productId)}`;

/**
 * DELETE /api/checkout/:id: the buyer left, so their hold ends now rather than when it lapses.
 * `keepalive` lets it finish while the tab closes; a lost one only means the hold lapses as usual.
 */
function releaseHold(productId: string): void {
  void fetch(checkoutUrl(productId), {
    method: 'DELETE',
    credentials: 'same-origin',
    keepalive: true,
  }).catch(() => undefined);
}

export interface CheckoutSessionState {
  /** The server's last answer: the session being paid, or the order of a buyer who paid already. */
  answer: CheckoutAnswer | undefined;
  /** Why the last opening failed (409 taken, 400 address fields, 429, 502). */
  error: unknown;
  opening: boolean;
  /** The server's total differed from the one the buyer saw: they pay only after seeing it. */
  totalChanged: boolean;
  /** Opens (or gets back) the session; its secret when `shownCents` is what it charges, else null. */
  open: (body: CheckoutBody, shownCents: number) => Promise<string | null>;
  /** The payment went through: nothing to release. */
  paid: () => void;
}

/**
 * A checkout's session, opened when the buyer presses Pay (ADR 0006: looking holds nothing), and
 * released when they leave (another page, the sheet closed, the tab closed) without paying.
 */
export function useCheckoutSession(productId: string): CheckoutSessionState {
  const [answer, setAnswer] = useState<CheckoutAnswer>();
  const [error, setError] = useState<unknown>();
  const [opening, setOpening] = useState(false);
  const [totalChanged, setTotalChanged] = useState(false);
  const held = useRef(false);

  const open = useCallback(
    async (body: CheckoutBody, shownCents: number) => {
      setError(undefined);
      setOpening(true);
      try {
        const next = await apiPost<CheckoutAnswer>(checkoutUrl(productId), body);
        setAnswer(next);
        if ('order' in next) return null;
        held.current = true;
        const same = next.amountCents === shownCents;
        setTotalChanged(!same);
        return same ? next.clientSecret : null;
      } catch (failure) {
        setError(failure);
        return null;
      } finally {
        setOpening(false);
      }
    },
    [productId],
  );

  const paid = useCallback(() => {
    held.current = false;
  }, []);

  useEffect(() => {
    const leave = () => {
      if (!held.current) return;
      held.current = false;
      releaseHold(productId);
    };
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      leave();
    };
  }, [productId]);

  return { answer, error, opening, totalChanged, open, paid };
}

/** The session to pay, when the last answer was one. */
export const openSessionOf = (state: CheckoutSessionState): CheckoutSession | undefined =>
  state.answer && !('order' in state.answer) ? state.answer : undefined;
