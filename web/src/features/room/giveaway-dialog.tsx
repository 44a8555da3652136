import {
  GIVEAWAY_AUDIENCES,
  GIVEAWAY_DEFAULT_SECONDS,
  type Giveaway,
  type GiveawayAudience,
  type StartGiveawayBody,
} from '@streamshop/contract/giveaways.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { useMutation } from '@tanstack/react-query';
import { Gift } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { errorMessage, extractFieldErrors, parseApiError } from '../../lib/api/client.ts';
import { cn } from '../../lib/cn.ts';
import { startGiveaway } from './giveaway-api.ts';
import { AUDIENCE_LABELS } from './giveaway-state.ts';

/** The lengths offered, 30 s to 5 min (the contract's bounds). */
export const GIVEAWAY_DURATIONS: Array<{ seconds: number; label: string }> = [
  { seconds: 30, label: '30 seconds' },
  { seconds: 60, label: '1 minute' },
  { seconds: 90, label: '1½ minutes' },
  { seconds: 120, label: '2 minutes' },
  { seconds: 180, label: '3 minutes' },
  { seconds: 300, label: '5 minutes' },
];

const AUDIENCE_HINTS: Record<GiveawayAudience, string> = {
  everyone: 'Anyone signed in to the room.',
  followers: 'Only those who follow you.',
  buyers: 'Only those who bought something in this show.',
};

/** A refused start in words: the server's reason (409), or each field's (400). */
function startRefusal(error: unknown): string {
  const { status } = parseApiError(error);
  const fields = status === 400 ? Object.values(extractFieldErrors(error)) : [];
  if (fields.length > 0) return fields.join(' ');
  return errorMessage(error, 'The giveaway could not be started. Try again.');
}

/**
 * The seller gives one unit of a lineup product away: to whom (everyone, followers, buyers of this
 * show) and for how long. The server's refusals (not live, another running, no unit free) are
 * shown in its words.
 */
export function GiveawayDialog({
  roomName,
  product,
  onStarted,
  onClose,
}: {
  roomName: string;
  product: RoomProduct;
  onStarted: (giveaway: Giveaway) => void;
  onClose: () => void;
}) {
  const [audience, setAudience] = useState<GiveawayAudience>('everyone');
  const [durationSec, setDurationSec] = useState(GIVEAWAY_DEFAULT_SECONDS);
  const [refusal, setRefusal] = useState<string | null>(null);
  const ids = { audience: useId(), duration: useId(), refusal: useId() };
  const start = useMutation({
    mutationFn: (body: StartGiveawayBody) => startGiveaway(roomName, body),
    onSuccess: (giveaway) => onStarted(giveaway),
    onError: (error) => setRefusal(startRefusal(error)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    start.mutate({ productId: product.id, audience, durationSec });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent data-testid="giveaway-dialog">
        <DialogHeader>
          <DialogTitle>Start a giveaway</DialogTitle>
          <DialogDescription>
            Give one {product.title} away. Viewers enter with one tap; when the clock runs out a winner is
            drawn and gets a free order you ship.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-medium text-sm">Who can enter</legend>
            {GIVEAWAY_AUDIENCES.map((option) => {
              const inputId = `${ids.audience}-${option}`;
              return (
                <label
                  key={option}
                  htmlFor={inputId}
                  className={cn(
                    'flex cursor-pointer items-start gap-3 rounded-md border p-2.5 text-sm',
                    audience === option ? 'border-primary bg-primary/5' : 'border-border',
                  )}
                >
                  <input
                    id={inputId}
                    type="radio"
                    name={ids.audience}
                    className="mt-0.5 size-4 accent-primary"
                    checked={audience === option}
                    onChange={() => setAudience(option)}
                    aria-describedby={`${inputId}-hint`}
                    data-testid={`giveaway-audience-${option}`}
                  />
                  <span className="grid">
                    <span className="font-medium">{AUDIENCE_LABELS[option]}</span>
                    <span id={`${inputId}-hint`} className="text-muted-foreground text-xs">
                      {AUDIENCE_HINTS[option]}
                    </span>
                  </span>
                </label>
              );
            })}
          </fieldset>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.duration}>Duration</Label>
            <select
              id={ids.duration}
              className="flex h-10 w-full cursor-pointer rounded-md border border-input bg-background px-3 py-2 text-base text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background md:text-sm"
              value={durationSec}
              onChange={(event) => setDurationSec(Number(event.target.value))}
              data-testid="giveaway-duration"
            >
              {GIVEAWAY_DURATIONS.map((option) => (
                <option key={option.seconds} value={option.seconds}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          {refusal ? (
            <p
              id={ids.refusal}
              className="text-red-400 text-sm"
              role="alert"
              data-testid="giveaway-start-error"
            >
              {refusal}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              disabled={start.isPending}
              aria-describedby={refusal ? ids.refusal : undefined}
              data-testid="giveaway-start-submit"
            >
              <Gift aria-hidden="true" />
              Start giveaway
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
