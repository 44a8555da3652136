/** Shop's entry for other modules: a room's running offer (checkout) and featured counts (storefront). */
export { featuredProductCounts } from './chapters.ts';
export { activeOffer } from './room-shop.ts';
