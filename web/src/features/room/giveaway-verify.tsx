import { drawOrder, type Giveaway } from '@streamshop/contract/giveaways.ts';
import { CircleAlert, CircleCheck, ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { checkDraw, type DrawCheck } from './giveaway-draw-check.ts';

function Hex({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-all font-mono" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The sorted entrants, numbered; a long list scrolls (and so takes focus, to scroll by keyboard). */
function EntrantList({ entrants, labelledBy }: { entrants: string[]; labelledBy: string }) {
  return (
    <ol
      className="max-h-32 list-inside list-decimal overflow-y-auto rounded-md bg-muted/50 px-2 py-1 font-mono"
      aria-labelledby={labelledBy}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable).
      tabIndex={0}
      data-testid="giveaway-entrants"
    >
      {entrants.map((handle) => (
        <li key={handle}>@{handle}</li>
      ))}
    </ol>
  );
}

/**
 * "Verify the draw": the seed's hash (published at the start), then the seed and the sorted
 * entrants, and a button that recomputes the winner in this browser (giveaway-draw-check.ts).
 */
export function GiveawayVerify({ giveaway }: { giveaway: Giveaway }) {
  const [check, setCheck] = useState<DrawCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const entrantsId = useId();
  const drawn = giveaway.status === 'drawn' && giveaway.seed !== null && giveaway.entrants !== null;
  const entrants = giveaway.entrants ? drawOrder(giveaway.entrants) : [];

  const verify = async () => {
    setChecking(true);
    try {
      setCheck(await checkDraw(giveaway));
    } catch {
      setCheck({ ok: false, text: 'The draw could not be recomputed in this browser.' });
    } finally {
      setChecking(false);
    }
  };

  return (
    <details className="group rounded-lg border border-border text-xs" data-testid="giveaway-verify">
      <summary className="flex cursor-pointer items-center gap-1.5 rounded-lg px-3 py-2 font-medium text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <ShieldCheck className="size-4 text-primary" aria-hidden="true" />
        Verify the draw
      </summary>
      <div className="grid gap-2 px-3 pb-3">
        <p className="text-muted-foreground">
          The winner is drawn from a secret seed whose SHA-256 was published when the giveaway started; the
          seed is published with the result, so anyone can check it picks the winner.
        </p>
        <dl className="grid gap-2">
          <Hex
            label="Seed hash (published at the start)"
            value={giveaway.seedHash}
            testId="giveaway-seed-hash"
          />
          {giveaway.seed ? <Hex label="Seed" value={giveaway.seed} testId="giveaway-seed" /> : null}
        </dl>
        {drawn ? (
          <>
            <div className="grid gap-0.5">
              <p id={entrantsId} className="text-muted-foreground">
                Entrants, in the draw's order ({entrants.length})
              </p>
              {entrants.length > 0 ? (
                <EntrantList entrants={entrants} labelledBy={entrantsId} />
              ) : (
                <p>Nobody entered.</p>
              )}
            </div>
            <Button
              variant="outline"
              size="sm"
              className="justify-self-start"
              onClick={() => void verify()}
              disabled={checking}
              data-testid="giveaway-verify-run"
            >
              <ShieldCheck aria-hidden="true" />
              Check the draw
            </Button>
            {/* Always in the page, so the result of a press is read out. */}
            <p
              className={cn(
                'flex items-start gap-1.5 font-medium text-sm empty:hidden',
                check?.ok ? 'text-foreground' : 'text-red-400',
              )}
              role="status"
              data-testid="giveaway-verify-result"
              data-ok={check?.ok}
            >
              {check ? (
                <>
                  {check.ok ? (
                    <CircleCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                  ) : (
                    <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  )}
                  <span className="min-w-0 break-words">{check.text}</span>
                </>
              ) : null}
            </p>
          </>
        ) : (
          <p className="text-muted-foreground">
            {giveaway.status === 'cancelled'
              ? 'Cancelled: nobody was drawn.'
              : 'The seed and the entrants are published when the winner is drawn.'}
          </p>
        )}
      </div>
    </details>
  );
}
