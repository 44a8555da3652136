import type { CardSetup, PaymentMethod } from '@streamshop/contract/payment-methods.ts';
import { AlertCircle, RotateCw } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api/client.ts';
import { useOpenCardSetupMutation, useSaveCardMutation } from '../../lib/api/payment-methods.ts';
import { PaymentForm, PaymentFormSkeleton } from '../payment-form/payment-form.tsx';
import { Button } from '../ui/button.tsx';

const SETUP_FAILED = 'The card form could not be opened. Please try again.';
const SAVE_FAILED = 'Your card could not be saved. Please try again.';

function Problem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="grid justify-items-start gap-3" data-testid="save-card-error">
      <p role="alert" className="flex items-center gap-2 text-destructive text-sm">
        <AlertCircle className="size-4 shrink-0" aria-hidden="true" />
        {message}
      </p>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      ) : null}
    </div>
  );
}

/**
 * Saves a card for later (auctions charge it when the buyer wins): opens a setup, shows the
 * provider's card form in setup mode, then saves the card it confirmed and hands it to `onSaved`.
 * Used by settings and by the live room's bid sheet.
 */
export function SaveCardForm({ onSaved }: { onSaved: (method: PaymentMethod) => void }) {
  const openSetup = useOpenCardSetupMutation();
  const save = useSaveCardMutation();
  const [setup, setSetup] = useState<CardSetup | null>(null);
  /** The card network's refusal (or a failed save), shown under the form. */
  const [problem, setProblem] = useState<string | null>(null);
  const opened = useRef(false);

  const open = useCallback(() => {
    openSetup.mutate(undefined, { onSuccess: setSetup });
  }, [openSetup.mutate]);

  useEffect(() => {
    // Once per form, also under StrictMode's second effect run: each setup is a provider call.
    if (opened.current) return;
    opened.current = true;
    open();
  }, [open]);

  const saveCard = useCallback(() => {
    if (!setup) return;
    setProblem(null);
    save.mutate(setup.setupRef, {
      onSuccess: (method) => onSaved(method),
      onError: (error) => setProblem(errorMessage(error, SAVE_FAILED)),
    });
  }, [setup, save.mutate, onSaved]);

  if (openSetup.isError) {
    return <Problem message={errorMessage(openSetup.error, SETUP_FAILED)} onRetry={open} />;
  }
  if (!setup) return <PaymentFormSkeleton />;
  return (
    <div className="grid gap-3" data-testid="save-card-form">
      <PaymentForm
        mode="setup"
        clientSecret={setup.clientSecret}
        submitLabel="Save card"
        onSuccess={saveCard}
        onFailure={setProblem}
      />
      {problem ? (
        // The card was confirmed but not saved here: saving again needs no new card.
        <Problem message={problem} onRetry={save.isError ? saveCard : undefined} />
      ) : null}
    </div>
  );
}
