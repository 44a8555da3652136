/** Whole seconds left until `endsAt` (rounded up, never below 0), or null without an end time. */
export function secondsUntil(endsAt: string | null | undefined, now: number): number | null {
  if (!endsAt) return null;
  const end = Date.parse(endsAt);
  if (Number.isNaN(end)) return null;
  return Math.max(0, Math.ceil((end - now) / 1000));
}

const pad2 = (value: number) => String(value).padStart(2, '0');

/** The room's countdown, mm:ss (spec section 9): 99 -> '01:39', 900 -> '15:00'. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${pad2(Math.floor(seconds / 60))}:${pad2(seconds % 60)}`;
}

/** A plan's stream length as on the Go Live plan card: 900 -> '15:00', 99 -> '1:39'. */
export function formatPlanDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}:${pad2(seconds % 60)}`;
}
