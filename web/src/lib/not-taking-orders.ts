/** Where a seller has not finished payout onboarding (Stripe Connect), in place of Buy Now. */
export const NOT_TAKING_ORDERS = 'Not taking orders yet';
