/**
 * The note under the order summary while a unit is held for the buyer (ADR 0006), e.g.
 * 'Reserved for you for 9:41 more.' Null without a hold, or once it has run out.
 */
export function reservationNote(reservedUntil: string | null | undefined, now: number): string | null {
  if (!reservedUntil) return null;
  const end = Date.parse(reservedUntil);
  if (Number.isNaN(end)) return null;
  const seconds = Math.ceil((end - now) / 1000);
  if (seconds <= 0) return 'Your reservation has run out. Reload the page to reserve it again.';
  const minutes = Math.floor(seconds / 60);
  return `Reserved for you for ${minutes}:${String(seconds % 60).padStart(2, '0')} more.`;
}
