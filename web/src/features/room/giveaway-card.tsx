import { withReturnPath } from '@streamshop/contract/return-path.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, ExternalLink, Gift, LogIn, UserPlus } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { type EntryRefusal, enterGiveaway, entryRefusal, followSeller } from './giveaway-api.ts';
import { GiveawayAnnouncer, GiveawayHeading, GiveawayProduct } from './giveaway-parts.tsx';
import { GiveawayResult } from './giveaway-result.tsx';
import { GiveawayVerify } from './giveaway-verify.tsx';
import { type RoomGiveaway, useGiveawaySecondsLeft } from './use-room-giveaway.ts';

/** How long a giveaway's result stays up for those who did not win (the server keeps it a minute). */
const RESULT_SHOWN_MS = 60_000;

/** What the viewer can do about a refusal: follow the seller, add an address, or nothing. */
function RefusalAction({
  refusal,
  hostHandle,
  following,
  onFollow,
}: {
  refusal: EntryRefusal;
  hostHandle: string;
  following: boolean;
  onFollow: () => void;
}) {
  if (refusal.kind !== 'refused') return null;
  if (refusal.code === 'NOT_FOLLOWER' && hostHandle) {
    return (
      <Button size="sm" onClick={onFollow} disabled={following} data-testid="giveaway-follow">
        <UserPlus aria-hidden="true" />
        Follow @{hostHandle} and enter
      </Button>
    );
  }
  if (refusal.code === 'ADDRESS_REQUIRED') {
    // A new tab: the stream plays on here, and Enter is one tap away once the address is saved.
    return (
      <a
        href="/settings"
        target="_blank"
        rel="noopener"
        className={buttonClasses({ size: 'sm', variant: 'outline' })}
        data-testid="giveaway-settings"
      >
        <ExternalLink aria-hidden="true" />
        Add an address in Settings<span className="sr-only"> (opens in a new tab)</span>
      </a>
    );
  }
  return null;
}

/** One tap to enter (signed in), the reason and its way out when refused, then "You're in". */
function EnterControls({
  room,
  hostHandle,
  secondsLeft,
}: {
  room: RoomGiveaway;
  hostHandle: string;
  secondsLeft: number;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const refusalId = useId();
  const [refusal, setRefusal] = useState<EntryRefusal | null>(null);
  const { applyView, markEntered } = room;
  const giveaway = room.giveaway;
  const enter = useMutation({
    mutationFn: enterGiveaway,
    onMutate: () => setRefusal(null),
    onSuccess: applyView,
    onError: (error, giveawayId) => {
      const refused = entryRefusal(error);
      if (refused.kind === 'refused' && refused.code === 'ALREADY_ENTERED') markEntered(giveawayId);
      else if (refused.kind === 'signed_out')
        void navigate(withReturnPath('/signin', `${location.pathname}${location.search}`));
      else setRefusal(refused);
    },
  });
  const follow = useMutation({
    mutationFn: async (giveawayId: string) => {
      await followSeller(hostHandle);
      return giveawayId;
    },
    onSuccess: (giveawayId) => {
      // The room's Follow button shows the change too.
      void queryClient.invalidateQueries({ queryKey: ['/api/sellers', hostHandle, 'follow'] });
      enter.mutate(giveawayId);
    },
    onError: (error) =>
      setRefusal({
        kind: 'other',
        message: errorMessage(error, `Could not follow @${hostHandle}. Try again.`),
      }),
  });
  if (!giveaway) return null;

  if (giveaway.entered) {
    return (
      <p
        className="flex items-center gap-2 rounded-lg bg-primary/10 px-3 py-2 font-medium text-sm"
        data-testid="giveaway-entered"
      >
        <CircleCheck className="size-4 shrink-0 text-primary" aria-hidden="true" />
        You're in. The winner is drawn when the clock runs out.
      </p>
    );
  }
  return (
    <div className="grid gap-2">
      <Button
        className="w-full"
        onClick={() => enter.mutate(giveaway.id)}
        disabled={enter.isPending || follow.isPending || secondsLeft === 0}
        aria-describedby={refusal ? refusalId : undefined}
        data-testid="giveaway-enter"
      >
        <Gift aria-hidden="true" />
        Enter giveaway
      </Button>
      {refusal ? (
        <div
          className="grid gap-2"
          data-testid="giveaway-refusal"
          data-code={refusal.kind === 'refused' ? refusal.code : refusal.kind}
        >
          <p id={refusalId} className="text-red-400 text-sm" role="alert">
            {refusal.message}
          </p>
          <div className="flex flex-wrap gap-2 empty:hidden">
            <RefusalAction
              refusal={refusal}
              hostHandle={hostHandle}
              following={follow.isPending || enter.isPending}
              onFollow={() => follow.mutate(giveaway.id)}
            />
          </div>
        </div>
      ) : null}
    </div>
  );
}

/**
 * The room's giveaway for viewers, under the video: the prize, who may enter, the clock and the
 * count, one tap to enter (or sign in first), then how it ended and the draw to verify.
 */
export function GiveawayCard({ room, hostHandle }: { room: RoomGiveaway; hostHandle: string }) {
  const location = useLocation();
  const secondsLeft = useGiveawaySecondsLeft(room);
  const giveaway = room.giveaway;
  const [hiddenId, setHiddenId] = useState<string | null>(null);
  const running = giveaway?.status === 'running';
  const won = room.me !== null && giveaway?.winner?.handle === room.me;

  // The result stays up a minute for the room; the winner keeps it (their order).
  const giveawayId = giveaway?.id;
  useEffect(() => {
    if (!giveawayId || running || won) return;
    const timer = setTimeout(() => setHiddenId(giveawayId), RESULT_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [giveawayId, running, won]);

  const shown = giveaway && giveaway.id !== hiddenId ? giveaway : null;
  return (
    <>
      {shown ? (
        <Card
          className="grid gap-3 p-4"
          role="region"
          aria-label="Giveaway"
          data-testid="giveaway-card"
          data-status={shown.status}
        >
          <GiveawayHeading giveaway={shown} secondsLeft={secondsLeft} />
          <GiveawayProduct giveaway={shown} hostHandle={hostHandle} />
          {running && room.me !== null ? (
            <EnterControls
              key={`enter-${shown.id}`}
              room={room}
              hostHandle={hostHandle}
              secondsLeft={secondsLeft}
            />
          ) : null}
          {running && room.me === null ? (
            <Link
              to={withReturnPath('/signin', `${location.pathname}${location.search}`)}
              className={buttonClasses({ className: 'w-full' })}
              data-testid="giveaway-sign-in"
            >
              <LogIn aria-hidden="true" />
              Sign in to enter
            </Link>
          ) : null}
          {running ? (
            <GiveawayVerify key={`verify-${shown.id}`} giveaway={shown} />
          ) : (
            <GiveawayResult giveaway={shown} me={room.me} />
          )}
        </Card>
      ) : null}
      <GiveawayAnnouncer giveaway={giveaway} hostHandle={hostHandle} />
    </>
  );
}
