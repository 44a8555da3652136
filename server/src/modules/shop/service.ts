/**
 * Shop's entry: a room's running offer (checkout), featured counts (storefront), the room's shop
 * and replay chapters (its routes), what a room is told of a paid order (checkout) and of
 * stock given back (orders), and the shows a product is in (catalog's product page).
 */
export { fillLineup } from './lineup.ts';
export { showsOfProduct } from './product-shows.ts';
export { announceOrder } from './purchases.ts';
export { activeOffer, featuredProductCounts, isInLineup, loadRoomShop, replayChapters } from './repo.ts';
export { announceStock } from './room-stock.ts';
