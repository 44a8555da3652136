/** The seller's own figures: read straight from the database (see repo.ts). Orders: modules/orders. */
export { sellerAnalytics } from './repo.ts';
