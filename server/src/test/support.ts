/**
 * The one door from e2e/ and bench/ into the server (rule 'outside-through-test-support' in
 * .dependency-cruiser.cjs): the harness that runs the real server in child processes, the shared
 * polling and ports, the fixture servers, and the few server pieces the benchmarks measure.
 *
 * Everything exported statically here is light (no module of the app is loaded), so importing this
 * file costs an e2e or bench process a few hundred ms at most. The server in the caller's own
 * process (buildApp, openDatabase, the seed) loads every module, so it comes on demand:
 * `const { buildApp } = await loadInProcessServer()`.
 *
 * Besides the harness: the media parsers and ffmpeg arguments the rendition bench feeds, the job
 * and lease timings the checkout and takeover benches wait on, and the checkout drill's HTTP
 * helpers (listProduct, openCheckout, payWithCard take a server process here, not an app).
 */

export type { LargeCatalogueSummary, SeedSummary } from '../cli/seed/index.ts';
export type { Database } from '../db/client.ts';
export { PAYMENT_JOBS_INTERVAL_MS } from '../modules/checkout/payment-jobs.ts';
export {
  encodeFlvTag,
  FlvReader,
  FlvTagType,
  isAacSequenceHeader,
  videoTagInfo,
} from '../modules/media/containers/flv.ts';
export { Fmp4Splitter } from '../modules/media/containers/fmp4-splitter.ts';
export { pipelineArgs } from '../modules/media/pipeline/pipeline.ts';
export { LEASE_SEC } from '../platform/leases.ts';
export { newAccount } from './accounts.ts';
export {
  chargedWithoutOrder,
  listProduct,
  openCheckout,
  type Pair,
  payInBurstAndKill,
  payWithCard,
  type Shopper,
  signUpShopper,
  startPair,
  within,
} from './checkout-drill.ts';
export { type EncoderProcess, ffmpegInstalled, startEncoder } from './encoder-process.ts';
export { eventually, msUntil, NotWithinError, passesWithin, type Within } from './eventually.ts';
export { type ClusterInstance, type MediaCluster, startMediaCluster } from './media-cluster.ts';
export { type MediaProbe, probeMedia } from './media-probe.ts';
export { freePort } from './ports.ts';
export { type S3Server, startS3Server } from './s3-server.ts';
export { type SellerClient, type StreamView, segmentsIn, signUpSeller, streamView } from './seller-client.ts';
export { connectToServerDatabase } from './server-database.ts';
export { type ServerProcess, type ServerProcessOptions, startServerProcess } from './server-process.ts';
export { linkIn, type ReceivedMail, startTestSmtpServer, type TestSmtpServer } from './smtp-server.ts';
export { createThrowawayDatabase, type ThrowawayDatabase } from './throwaway-database.ts';

/** The server in this process: app, database, seed (loads every module; see in-process.ts). */
export const loadInProcessServer = () => import('./in-process.ts');
export type InProcessServer = Awaited<ReturnType<typeof loadInProcessServer>>;

/** The database client alone (node-postgres or PGlite; opening runs the migrations), on demand. */
export const loadDatabaseClient = () => import('../db/client.ts');
