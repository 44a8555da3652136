/** The seller's own figures and orders: read straight from the database (see repo.ts). */
export { listOrders, sellerAnalytics } from './repo.ts';
