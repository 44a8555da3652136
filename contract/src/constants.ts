/** Business constants of spec section 9, shared by server and web. */

export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

/** Stream length limit per plan, in seconds. */
export const PLAN_STREAM_SECONDS: Record<Plan, number> = { free: 99, pro: 900 };

export const PRO_PRICE_CENTS = 999;
/** Pro's money-back guarantee: a refund in full within this many days of the first payment, once per account. */
export const MONEY_BACK_DAYS = 30;
export const PROCESSING_FEE_CENTS = 0;

export const CONDITIONS = ['new', 'used', 'refurbished'] as const;
export type Condition = (typeof CONDITIONS)[number];

export const SORTS = ['newest', 'relevance', 'price_low', 'price_high'] as const;
export type Sort = (typeof SORTS)[number];

export const EXPLORE_PAGE_SIZE = 20;
export const EXPLORE_MAX_PAGE_SIZE = 100;
export const PAGINATION_BUTTONS = 5;

/** The dashboard's Orders tab shows this many of the latest orders. */
export const DASHBOARD_LATEST_ORDERS = 10;
/** 'Order #' plus this many characters of the order's id. */
export const ORDER_NUMBER_LENGTH = 8;

export const MIN_PASSWORD_LENGTH = 8;
/** Upper bound so a huge password cannot be used to burn CPU in the hash. */
export const MAX_PASSWORD_LENGTH = 200;

export const LIVE_LIST_REFRESH_MS = 30_000;

export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_LIMIT = 1;

export const UNAUTHORIZED_REDIRECT_MS = 500;
export const PAYMENT_SUCCESS_REDIRECT_MS = 2000;

export const DISC_DEPOSIT_CENTS = 100;
export const DISC_ORDER_MIN_QUANTITY = 1;
export const DISC_ORDER_MAX_QUANTITY = 1000;

/** Disc price per unit by quantity (cents), highest threshold first is looked up by discUnitPriceCents. */
export const DISC_PRICE_TIERS = [
  { minQuantity: 1, maxQuantity: 9, unitPriceCents: 500 },
  { minQuantity: 10, maxQuantity: 49, unitPriceCents: 350 },
  { minQuantity: 50, maxQuantity: 99, unitPriceCents: 275 },
  { minQuantity: 100, maxQuantity: null, unitPriceCents: 250 },
] as const;
