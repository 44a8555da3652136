import { z } from 'zod';
import type { Plan } from './constants.ts';

/**
 * Going live from an encoder (OBS, a hardware box) over RTMP: where to send, with which key, and
 * the settings the plan allows (docs/decisions/0013).
 */

/** The largest picture each plan may send, and the bitrate to set for it. */
export const PLAN_VIDEO: Record<Plan, { width: number; height: number; label: string; bitrateKbps: number }> =
  {
    free: { width: 854, height: 480, label: '480p', bitrateKbps: 1500 },
    pro: { width: 1920, height: 1080, label: '1080p', bitrateKbps: 6000 },
  };

/** What every encoder should use: the server copies H.264 and cuts 1 s segments at keyframes. */
export const ENCODER_SETTINGS = {
  videoCodec: 'H.264',
  audioCodec: 'AAC',
  keyframeIntervalSec: 1,
} as const;

/**
 * A publisher (an encoder, or the host's browser) gone for longer than this ends its stream,
 * whichever server instance it was on (End Stream or the plan's limit end it sooner). A stream
 * nobody has published yet stays live until its limit.
 */
export const PUBLISHER_GRACE_SEC = 30;

/** GET /api/ingest (anyone): whether this server takes encoders at all (RTMP_PORT 0 turns it off). */
export const ingestAvailabilitySchema = z.object({ rtmp: z.boolean() });
export type IngestAvailability = z.infer<typeof ingestAvailabilitySchema>;
export const INGEST_AVAILABILITY_URL = '/api/ingest';

/** What GET /api/streams/:name/ingest answers (409) when this server takes no encoder. */
export const INGEST_OFF_MESSAGE = 'Streaming from OBS is not available on this server.';

export const ingestSchema = z.object({
  /** The server URL to paste into OBS (Settings → Stream → Server). */
  rtmpUrl: z.string(),
  /** The stream key (Settings → Stream → Stream Key): as secret as a password. */
  streamKey: z.string(),
  /** An encoder is publishing this stream now. */
  encoderConnected: z.boolean(),
  /**
   * The live stream's encoder left at this moment and may come back until PUBLISHER_GRACE_SEC
   * later (then the stream ends); null while one publishes or when none has.
   */
  encoderLeftAt: z.string().nullable(),
  /** The owner's plan's picture and bitrate, with the settings every encoder needs. */
  settings: z.object({
    videoCodec: z.string(),
    audioCodec: z.string(),
    keyframeIntervalSec: z.number(),
    maxWidth: z.number(),
    maxHeight: z.number(),
    resolution: z.string(),
    bitrateKbps: z.number(),
  }),
});
export type Ingest = z.infer<typeof ingestSchema>;
