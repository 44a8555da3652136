/**
 * Shop's entry: a room's running offer (checkout), featured counts (storefront), and the room's
 * shop and replay chapters (its routes).
 */
export { activeOffer, featuredProductCounts, loadRoomShop, replayChapters } from './repo.ts';
