/**
 * Who the dashboard is for. Everyone who signs up can buy and sell (spec: no seller/buyer role),
 * but someone who has never listed, streamed or sold is here as a buyer: they get their orders
 * first and an invitation to start selling instead of "Seller Dashboard – Welcome back".
 */
export type DashboardAudience = 'seller' | 'buyer';

/**
 * The dashboard's tabs in the spec's order, with Shows (issue 29) beside Streams; ?tab= opens one
 * (the sale emails link to ?tab=sales).
 */
export const DASHBOARD_TABS = ['products', 'streams', 'shows', 'orders', 'sales', 'earnings'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

/** What is known of the user's selling so far: undefined while it loads. */
export interface SellingRecord {
  products: number | undefined;
  streams: number | undefined;
  /** Orders of their products (the analytics' totalOrders). */
  sales: number | undefined;
  /** One of the three could not be loaded: the spec's seller dashboard, which says so per tab. */
  failed: boolean;
}

/** 'buyer' when they have no product, stream or sale; undefined until that is known. */
export function dashboardAudience(record: SellingRecord): DashboardAudience | undefined {
  if (record.failed) return 'seller';
  const { products, streams, sales } = record;
  if (products === undefined || streams === undefined || sales === undefined) return undefined;
  return products + streams + sales === 0 ? 'buyer' : 'seller';
}

/** The tab a visit opens without ?tab=: a buyer's orders, a seller's products. */
export const defaultTabFor = (audience: DashboardAudience): DashboardTab =>
  audience === 'buyer' ? 'orders' : 'products';

/** The tab ?tab= names, if it names one. */
export const tabFromQuery = (value: string | null): DashboardTab | undefined =>
  DASHBOARD_TABS.find((name) => name === value);
