import type { Plan } from '@streamshop/contract/constants.ts';
import { PLAN_VIDEO } from '@streamshop/contract/ingest.ts';
import { initKindOf } from '../containers/mime-types.ts';
import { type InitKind, type VideoSize, videoSizeOf } from '../containers/video-size.ts';

/**
 * What a publisher's inits are held against (the owner's plan's largest picture), and who hears a
 * refusal.
 */
export interface SizeCheck {
  kind: InitKind;
  limit: { width: number; height: number; label: string };
  onRefused: (reason: string) => void;
}

/** The check of a publisher sending `mimeType` on a stream of `plan`; undefined when the plan is unknown. */
export function sizeCheckFor(
  plan: string | undefined,
  mimeType: string,
  onRefused: (reason: string) => void,
): SizeCheck | undefined {
  const limit = plan !== undefined && Object.hasOwn(PLAN_VIDEO, plan) ? PLAN_VIDEO[plan as Plan] : undefined;
  return limit && { kind: initKindOf(mimeType), limit, onRefused };
}

/**
 * Why the publisher's init is refused: its picture is larger than the plan allows (long side
 * against long side, so a portrait phone fits too). Undefined when it fits, or its size cannot be
 * read (an unreadable size passes).
 */
export function sizeRefusal(check: SizeCheck, init: Buffer): { reason: string; size: VideoSize } | undefined {
  const size = videoSizeOf(init, check.kind);
  if (!size || fits(size, check.limit)) return undefined;
  const { limit } = check;
  const reason =
    `This stream is limited to ${limit.label} (${limit.width}×${limit.height}) on your plan; ` +
    `your video is ${size.width}×${size.height}. Lower the resolution in your encoder, or upgrade to Pro for up to 1080p.`;
  return { reason, size };
}

/** Whether `size` fits in `limit`, either way up. */
function fits(size: VideoSize, limit: VideoSize): boolean {
  const [long, short] = size.width >= size.height ? [size.width, size.height] : [size.height, size.width];
  return long <= Math.max(limit.width, limit.height) && short <= Math.min(limit.width, limit.height);
}
