import type { Giveaway } from '@streamshop/contract/giveaways.ts';
import { Gift, PartyPopper } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { giveawayOutcome } from './giveaway-state.ts';
import { GiveawayVerify } from './giveaway-verify.tsx';

/**
 * How the giveaway ended: "@handle won <title>" (the words everyone sees), "No entries" or
 * "Giveaway cancelled"; "You won!" with the order for the winner; and the draw to verify.
 */
export function GiveawayResult({ giveaway, me }: { giveaway: Giveaway; me: string | null }) {
  const won = me !== null && giveaway.winner?.handle === me;
  return (
    <div className="grid gap-2" data-testid="giveaway-result">
      <p className="flex items-center gap-2 break-words font-semibold" data-testid="giveaway-outcome">
        {giveaway.winner ? <Gift className="size-4 shrink-0 text-primary" aria-hidden="true" /> : null}
        {giveawayOutcome(giveaway)}
      </p>
      {won ? (
        <div className="flex flex-wrap items-center gap-2">
          <p className="flex items-center gap-2 font-semibold text-primary" data-testid="giveaway-you-won">
            <PartyPopper className="size-5" aria-hidden="true" />
            You won!
          </p>
          <Link
            to="/orders"
            className={buttonClasses({ size: 'sm', variant: 'outline' })}
            data-testid="giveaway-order-link"
            data-order-id={giveaway.orderId ?? undefined}
          >
            Your order
          </Link>
        </div>
      ) : null}
      {giveaway.status === 'drawn' ? <GiveawayVerify key={giveaway.id} giveaway={giveaway} /> : null}
    </div>
  );
}
