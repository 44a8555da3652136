import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { AlertCircle, CircleCheck, Loader2, Lock } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../ui/button.tsx';
import { GENERIC_PAYMENT_FAILURE, type PaymentFormProps, secretToPay } from './payment-form-props.ts';

// One Stripe.js instance per key for the whole visit; loadStripe injects its script only once.
const stripeByKey = new Map<string, Promise<Stripe | null>>();

function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripeByKey.get(publishableKey);
  if (!stripe) {
    // A blocked or failed script resolves to null, which the form reports.
    stripe = loadStripe(publishableKey).catch(() => null);
    stripeByKey.set(publishableKey, stripe);
  }
  return stripe;
}

const LOAD_FAILED = 'The card form could not be loaded. Please reload the page and try again.';

function LoadError({ message }: { message: string }) {
  return (
    <p className="flex items-center gap-2 text-destructive text-sm" role="alert">
      <AlertCircle className="size-4" aria-hidden="true" />
      {message}
    </p>
  );
}

/** Stripe's Payment Element; loaded lazily, only when the server's provider is Stripe. */
export function StripeCardForm({ publishableKey, ...props }: PaymentFormProps & { publishableKey: string }) {
  const stripe = stripeFor(publishableKey);
  const [unavailable, setUnavailable] = useState(false);

  useEffect(() => {
    let current = true;
    void stripe.then((loaded) => {
      if (current && !loaded) setUnavailable(true);
    });
    return () => {
      current = false;
    };
  }, [stripe]);

  if (unavailable) return <LoadError message={LOAD_FAILED} />;
  const appearance = { theme: 'night' } as const;
  // A checkout's PaymentIntent is made on Pay: the form is prepared for the amount (Stripe's
  // "deferred intent" flow) and confirmed with the secret opened then.
  const options =
    typeof props.clientSecret === 'string'
      ? { clientSecret: props.clientSecret, appearance }
      : { mode: 'payment' as const, amount: props.clientSecret.amountCents, currency: 'usd', appearance };
  return (
    <Elements stripe={stripe} options={options}>
      <StripeFields {...props} />
    </Elements>
  );
}

/** Stripe's own message (a StripeError or a thrown Error), e.g. 'Your card was declined.' */
function failureMessage(error: unknown): string {
  const message = error && typeof error === 'object' && 'message' in error ? error.message : null;
  return typeof message === 'string' && message ? message : GENERIC_PAYMENT_FAILURE;
}

type Phase = 'idle' | 'processing' | 'succeeded';

function StripeFields({
  clientSecret: source,
  submitLabel,
  onSuccess,
  onFailure,
  mode = 'payment',
}: PaymentFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const busy = useRef(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || busy.current) return;
    busy.current = true;
    setPhase('processing');
    try {
      if (typeof source !== 'string') {
        // Stripe checks the fields before the session (and the hold) is opened.
        const checked = await elements.submit();
        if (checked.error) throw checked.error;
      }
      if (mode === 'setup') {
        // Saving a card for later (an off-session SetupIntent): nothing is charged now.
        const { error, setupIntent } = await stripe.confirmSetup({
          elements,
          confirmParams: { return_url: window.location.href },
          redirect: 'if_required',
        });
        if (error) throw error;
        if (setupIntent?.status !== 'succeeded') throw new Error(GENERIC_PAYMENT_FAILURE);
        setPhase('succeeded');
        onSuccess();
        return;
      }
      const clientSecret = await secretToPay(source);
      if (clientSecret === null) {
        busy.current = false;
        setPhase('idle');
        return;
      }
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        // Only for a deferred intent: Elements made from a secret already has it.
        ...(typeof source === 'string' ? {} : { clientSecret }),
        confirmParams: { return_url: `${window.location.origin}/dashboard` },
        redirect: 'if_required',
      });
      if (error) throw error;
      // 'processing': the bank accepted it and Stripe settles it shortly; the webhook records it.
      if (paymentIntent?.status === 'succeeded' || paymentIntent?.status === 'processing') {
        setPhase('succeeded');
        onSuccess();
        return;
      }
      throw new Error(GENERIC_PAYMENT_FAILURE);
    } catch (error) {
      busy.current = false;
      setPhase('idle');
      onFailure(failureMessage(error));
    }
  };

  const locked = phase !== 'idle';
  return (
    <form className="grid gap-4" onSubmit={submit} data-testid="stripe-card-form">
      <PaymentElement
        onReady={() => setReady(true)}
        onLoadError={(event) => setLoadError(event.error.message ?? LOAD_FAILED)}
        options={{ readOnly: locked }}
      />
      {loadError ? <LoadError message={loadError} /> : null}
      <Button
        type="submit"
        size="lg"
        className="w-full"
        disabled={!stripe || !elements || !ready || locked}
        data-testid="payment-submit"
      >
        {phase === 'succeeded' ? (
          <CircleCheck aria-hidden="true" />
        ) : phase === 'processing' || !ready ? (
          <Loader2 className="animate-spin" aria-hidden="true" />
        ) : (
          <Lock aria-hidden="true" />
        )}
        {phase === 'succeeded'
          ? mode === 'setup'
            ? 'Card saved'
            : 'Payment complete'
          : phase === 'processing'
            ? 'Processing...'
            : submitLabel}
      </Button>
    </form>
  );
}
