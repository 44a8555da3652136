/**
 * Auctions' entry for other modules and the test harness: the requests an auction took, in order
 * (tests and the bench replay them through the rules to check the result).
 */
export { takenRequests } from './repo.ts';
