import type { Giveaway } from '@streamshop/contract/giveaways.ts';
import { useMutation } from '@tanstack/react-query';
import { Square } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { cancelGiveaway } from './giveaway-api.ts';
import { GiveawayAnnouncer, GiveawayHeading, GiveawayProduct } from './giveaway-parts.tsx';
import { GiveawayResult } from './giveaway-result.tsx';
import { entryCountText } from './giveaway-state.ts';
import { GiveawayVerify } from './giveaway-verify.tsx';
import { type RoomGiveaway, useGiveawaySecondsLeft } from './use-room-giveaway.ts';

/** The running or ended giveaway, with Cancel (behind a confirm) for the seller while it runs. */
function SellerGiveaway({
  room,
  giveaway,
  hostHandle,
  canCancel,
}: {
  room: RoomGiveaway;
  giveaway: Giveaway;
  hostHandle: string;
  canCancel: boolean;
}) {
  const secondsLeft = useGiveawaySecondsLeft(room);
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: cancelGiveaway,
    onSuccess: (cancelled) => {
      room.applyView(cancelled);
      setConfirming(false);
      toast({ title: 'Giveaway cancelled', description: 'Nobody wins, and the unit is free again.' });
    },
    onError: (error) => {
      setConfirming(false);
      errorToast('Error', errorMessage(error, 'The giveaway could not be cancelled'));
    },
  });
  const running = giveaway.status === 'running';
  const dropped =
    giveaway.entryCount > 0 ? ` The ${entryCountText(giveaway.entryCount)} so far are dropped.` : '';
  return (
    <div
      className="grid gap-3 rounded-lg border border-primary/40 bg-primary/10 p-3"
      data-testid="seller-giveaway"
      data-status={giveaway.status}
    >
      <GiveawayHeading giveaway={giveaway} secondsLeft={secondsLeft} />
      <GiveawayProduct giveaway={giveaway} hostHandle={hostHandle} />
      {running ? (
        <GiveawayVerify key={giveaway.id} giveaway={giveaway} />
      ) : (
        <GiveawayResult giveaway={giveaway} me={null} />
      )}
      {running && canCancel ? (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          onClick={() => setConfirming(true)}
          disabled={cancel.isPending}
          data-testid="giveaway-cancel"
        >
          <Square aria-hidden="true" />
          Cancel giveaway
        </Button>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!cancel.isPending) setConfirming(open);
        }}
        title="Cancel the giveaway?"
        description={`Nobody will win ${giveaway.product.title}, and its unit is free to sell again.${dropped}`}
        cancelLabel="Keep it running"
        confirmLabel="Cancel giveaway"
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate(giveaway.id)}
        testId="giveaway-cancel-dialog"
        confirmTestId="giveaway-cancel-confirm"
      />
    </div>
  );
}

/**
 * The room's giveaway in the lineup panel, for the seller and their moderators: the prize, the
 * clock and the entry count, and how it ended; the seller may cancel it while it runs.
 */
export function SellerGiveawayCard({
  room,
  hostHandle,
  canCancel,
}: {
  room: RoomGiveaway;
  hostHandle: string;
  canCancel: boolean;
}) {
  const giveaway = room.giveaway;
  return (
    <>
      {giveaway ? (
        <SellerGiveaway room={room} giveaway={giveaway} hostHandle={hostHandle} canCancel={canCancel} />
      ) : null}
      {/* The seller's announcer only: a moderator also has the viewers' card, which announces. It
          stays while there is no giveaway: a live region added with its text is often not read. */}
      {canCancel ? <GiveawayAnnouncer giveaway={giveaway} hostHandle={hostHandle} /> : null}
    </>
  );
}
