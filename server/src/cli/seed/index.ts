/**
 * Demo data: categories, independent sellers and a few hundred products with generated artwork,
 * and a large generated catalogue for benchmarks. This is what the rest of the server uses.
 */
export { DEMO_PASSWORD, ensureDemoImages, SEED_LOCK_ID } from './catalogue.ts';
export { type SeedOptions, type SeedSummary, seedDemo, seedDemoIfEmpty } from './demo.ts';
export {
  DEMO_LIVE_STREAM,
  DEMO_REPLAY_ROOM,
  DEMO_REPLAY_SECONDS,
  DEMO_REPLAY_THUMBNAIL,
} from './demo-replay.ts';
export { type LargeCatalogueSummary, seedLargeCatalogue } from './large-catalogue.ts';
