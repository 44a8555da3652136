import type { Giveaway } from '@streamshop/contract/giveaways.ts';
import { Gift, Timer, Users } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ProductThumb } from '../../components/product-thumb.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/cn.ts';
import { formatCountdown } from '../../lib/countdown.ts';
import { audienceNote, entryCountText, giveawayOutcome } from './giveaway-state.ts';

/** The seconds left under which the clock turns urgent. */
const GIVEAWAY_URGENT_SECONDS = 10;

/** The title line: "Giveaway" and the clock (mm:ss, urgent under 10 s), "Drawing…" or "Ended". */
export function GiveawayHeading({ giveaway, secondsLeft }: { giveaway: Giveaway; secondsLeft: number }) {
  const running = giveaway.status === 'running';
  const urgent = running && secondsLeft <= GIVEAWAY_URGENT_SECONDS;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h2 className="flex items-center gap-2 font-semibold">
        <Gift className="size-4 text-primary" aria-hidden="true" />
        Giveaway
      </h2>
      {running && secondsLeft > 0 ? (
        <p
          className={cn(
            'ml-auto flex items-center gap-1 rounded-md px-2 py-0.5 font-semibold text-sm tabular-nums',
            urgent ? 'bg-destructive text-destructive-foreground' : 'bg-muted text-foreground',
          )}
          data-testid="giveaway-time-left"
          data-urgent={urgent}
        >
          <Timer className="size-4" aria-hidden="true" />
          <span className="sr-only">Time left </span>
          {formatCountdown(secondsLeft)}
        </p>
      ) : (
        <Badge variant="secondary" className="ml-auto" data-testid="giveaway-closed">
          {running ? 'Drawing the winner…' : giveaway.status === 'cancelled' ? 'Cancelled' : 'Ended'}
        </Badge>
      )}
    </div>
  );
}

/** The prize: its picture, "Free: <title>", who may enter and how many have. */
export function GiveawayProduct({ giveaway, hostHandle }: { giveaway: Giveaway; hostHandle: string }) {
  return (
    <div className="flex gap-3">
      <ProductThumb product={giveaway.product} size="sm" />
      <div className="grid min-w-0 flex-1 content-start gap-0.5">
        <p className="truncate font-medium text-sm" data-testid="giveaway-product-title">
          Free: {giveaway.product.title}
        </p>
        <p className="text-muted-foreground text-xs" data-testid="giveaway-audience">
          {audienceNote(giveaway.audience, hostHandle)}
        </p>
        <p className="flex items-center gap-1 text-sm tabular-nums" data-testid="giveaway-entry-count">
          <Users className="size-3.5 text-muted-foreground" aria-hidden="true" />
          {entryCountText(giveaway.entryCount)}
        </p>
      </div>
    </div>
  );
}

/** What the polite live region says for this giveaway: its start, then how it ended. */
function announcementOf(giveaway: Giveaway, hostHandle: string): { key: string; text: string } {
  if (giveaway.status !== 'running') return { key: `end-${giveaway.id}`, text: giveawayOutcome(giveaway) };
  return {
    key: `start-${giveaway.id}`,
    text: `Giveaway started: free ${giveaway.product.title}. ${audienceNote(giveaway.audience, hostHandle)}.`,
  };
}

/**
 * A polite live region for screen readers: the start ("Giveaway started: free <title>") and the
 * result, each once. The ticking clock and the count are not announced. It stays in the page
 * while the room has no giveaway: a region added together with its text is often not read.
 */
export function GiveawayAnnouncer({
  giveaway,
  hostHandle,
}: {
  giveaway: Giveaway | null;
  hostHandle: string;
}) {
  const { key, text } = giveaway ? announcementOf(giveaway, hostHandle) : { key: '', text: '' };
  const said = useRef<Set<string>>(new Set());
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (!key || said.current.has(key)) return;
    said.current.add(key);
    setMessage(text);
  }, [key, text]);
  return (
    <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="giveaway-announcer">
      {message}
    </p>
  );
}
