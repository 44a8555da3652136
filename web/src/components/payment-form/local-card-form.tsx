import type { LocalPaymentResult } from '@streamshop/contract/payments.ts';
import { CircleCheck, CreditCard, Loader2, Lock } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { errorMessage, extractFieldErrors, parseApiError } from '../../lib/api/client.ts';
import { useConfirmLocalSetupMutation } from '../../lib/api/payment-methods.ts';
import {
  useAuthenticateLocalPaymentMutation,
  useConfirmLocalPaymentMutation,
} from '../../lib/api/payments.ts';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';
import { Label } from '../ui/label.tsx';
import { AuthenticationDialog } from './authentication-dialog.tsx';
import { formatCvc } from './card-cvc.ts';
import { formatExpiry } from './card-expiry.ts';
import {
  type CardFieldErrors,
  type CardFields,
  checkCardFields,
  serverCardFieldErrors,
} from './card-form-validation.ts';
import { cardDigits, caretAfterDigits, formatCardNumber } from './card-number.ts';
import { GENERIC_PAYMENT_FAILURE, type PaymentFormProps, secretToPay } from './payment-form-props.ts';

/**
 * idle: the form can be sent; processing: a charge is in flight; authenticating: the bank's extra
 * step is open; succeeded: paid, so the form stays locked.
 */
type Phase = 'idle' | 'processing' | 'authenticating' | 'succeeded';

const FIELD_ORDER: (keyof CardFields)[] = ['number', 'expiry', 'cvc'];

function TestCardsNote({ mode }: { mode: 'payment' | 'setup' }) {
  if (mode === 'setup') {
    return (
      <div className="rounded-md border border-border border-dashed p-3 text-muted-foreground text-xs">
        <p className="font-medium text-foreground">Test mode: no real card is saved.</p>
        <ul className="mt-1 grid gap-0.5" data-testid="test-cards">
          <li>
            <span className="font-mono">4242 4242 4242 4242</span> is saved
          </li>
          <li>
            <span className="font-mono">4000 0000 0000 0341</span> is saved, but its charges are declined
          </li>
          <li>
            <span className="font-mono">4000 0000 0000 0002</span> is declined
          </li>
        </ul>
        <p className="mt-1">Use any future expiry date and any 3-digit CVC.</p>
      </div>
    );
  }
  return (
    <div className="rounded-md border border-border border-dashed p-3 text-muted-foreground text-xs">
      <p className="font-medium text-foreground">Test mode: no real card is charged.</p>
      <ul className="mt-1 grid gap-0.5" data-testid="test-cards">
        <li>
          <span className="font-mono">4242 4242 4242 4242</span> succeeds
        </li>
        <li>
          <span className="font-mono">4000 0000 0000 0002</span> is declined
        </li>
        <li>
          <span className="font-mono">4000 0025 0000 3155</span> asks for an extra confirmation step
        </li>
      </ul>
      <p className="mt-1">Use any future expiry date and any 3-digit CVC.</p>
    </div>
  );
}

/** The local provider's card form: number, expiry and CVC, checked here before they are sent. */
export function LocalCardForm({
  clientSecret,
  submitLabel,
  onSuccess,
  onFailure,
  mode = 'payment',
}: PaymentFormProps) {
  const confirmPayment = useConfirmLocalPaymentMutation();
  const confirmSetup = useConfirmLocalSetupMutation();
  const confirm = mode === 'setup' ? confirmSetup : confirmPayment;
  const authenticate = useAuthenticateLocalPaymentMutation();
  const [fields, setFields] = useState<CardFields>({ number: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<CardFieldErrors>({});
  const [phase, setPhase] = useState<Phase>('idle');
  // State updates land after a render; the ref stops a second click in between (no double charge).
  const busy = useRef(false);
  /** The secret being paid (opened on the first Pay of a checkout), for the authentication step. */
  const paying = useRef<string | null>(null);
  const ids = { number: useId(), expiry: useId(), cvc: useId() };
  const inputs = {
    number: useRef<HTMLInputElement>(null),
    expiry: useRef<HTMLInputElement>(null),
    cvc: useRef<HTMLInputElement>(null),
  };
  const numberCaret = useRef<number | null>(null);

  // Reformatting the number moves the caret to the end; put it back after the same digit.
  useLayoutEffect(() => {
    const input = inputs.number.current;
    if (numberCaret.current === null || !input || document.activeElement !== input) return;
    input.setSelectionRange(numberCaret.current, numberCaret.current);
    numberCaret.current = null;
  });

  const setField = (field: keyof CardFields, value: string) => {
    setFields((current) => ({ ...current, [field]: value }));
    setErrors(({ [field]: _, ...rest }) => rest);
  };

  const onNumberChange = (event: ChangeEvent<HTMLInputElement>) => {
    const { value, selectionStart } = event.target;
    const digitsBeforeCaret = cardDigits(value.slice(0, selectionStart ?? value.length)).length;
    const formatted = formatCardNumber(value);
    numberCaret.current = caretAfterDigits(formatted, digitsBeforeCaret);
    setField('number', formatted);
    // A shorter code fits an Amex number only when the number changes brand.
    setFields((current) => ({ ...current, cvc: formatCvc(current.cvc, cardDigits(formatted)) }));
  };

  const settle = (result: LocalPaymentResult) => {
    if (result.status === 'succeeded') {
      setPhase('succeeded');
      onSuccess();
      return;
    }
    busy.current = result.status === 'requires_action';
    setPhase(result.status === 'requires_action' ? 'authenticating' : 'idle');
    if (result.status === 'failed') onFailure(result.message ?? GENERIC_PAYMENT_FAILURE);
  };

  const fail = (error: unknown) => {
    const { status } = parseApiError(error);
    if (status === 409 && /already (complete|saved)/i.test(errorMessage(error, ''))) {
      // Paid (or saved) in another tab or by a click whose answer was lost: the order exists.
      settle({ status: 'succeeded' });
      return;
    }
    busy.current = false;
    setPhase('idle');
    const fieldErrors = status === 400 ? serverCardFieldErrors(extractFieldErrors(error)) : {};
    if (Object.keys(fieldErrors).length > 0) {
      setErrors(fieldErrors);
      return;
    }
    onFailure(errorMessage(error, GENERIC_PAYMENT_FAILURE));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy.current || phase !== 'idle') return;
    const check = checkCardFields(fields, new Date());
    if (!check.ok) {
      setErrors(check.errors);
      const first = FIELD_ORDER.find((field) => check.errors[field]);
      if (first) inputs[first].current?.focus();
      return;
    }
    busy.current = true;
    setErrors({});
    setPhase('processing');
    void secretToPay(clientSecret).then((secret) => {
      if (secret === null) {
        busy.current = false;
        setPhase('idle');
        return;
      }
      paying.current = secret;
      confirm.mutate({ clientSecret: secret, card: check.card }, { onSuccess: settle, onError: fail });
    }, fail);
  };

  const answerAuthentication = (approve: boolean) => {
    const secret = paying.current;
    if (authenticate.isPending || secret === null) return;
    authenticate.mutate({ clientSecret: secret, approve }, { onSuccess: settle, onError: fail });
  };

  const locked = phase !== 'idle';
  const fieldError = (field: keyof CardFields) =>
    errors[field] ? (
      <p id={`${ids[field]}-error`} className="text-destructive text-sm" data-testid={`card-${field}-error`}>
        {errors[field]}
      </p>
    ) : null;
  const invalidProps = (field: keyof CardFields) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${ids[field]}-error` : undefined,
  });

  return (
    <>
      <form className="grid gap-4" onSubmit={submit} noValidate data-testid="local-card-form">
        <div className="grid gap-2">
          <Label htmlFor={ids.number}>Card number</Label>
          <div className="relative">
            <Input
              ref={inputs.number}
              id={ids.number}
              value={fields.number}
              onChange={onNumberChange}
              placeholder="1234 1234 1234 1234"
              inputMode="numeric"
              autoComplete="cc-number"
              disabled={locked}
              className="pr-10 font-mono"
              {...invalidProps('number')}
              data-testid="card-number"
            />
            <CreditCard
              className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
          </div>
          {fieldError('number')}
        </div>
        <div className="grid grid-cols-2 gap-4">
          <div className="grid content-start gap-2">
            <Label htmlFor={ids.expiry}>Expiration</Label>
            <Input
              ref={inputs.expiry}
              id={ids.expiry}
              value={fields.expiry}
              onChange={(event) => {
                const { value } = event.target;
                setField('expiry', formatExpiry(value, value.length < fields.expiry.length));
              }}
              placeholder="MM / YY"
              inputMode="numeric"
              autoComplete="cc-exp"
              disabled={locked}
              className="font-mono"
              {...invalidProps('expiry')}
              data-testid="card-expiry"
            />
            {fieldError('expiry')}
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor={ids.cvc}>CVC</Label>
            <Input
              ref={inputs.cvc}
              id={ids.cvc}
              value={fields.cvc}
              onChange={(event) => setField('cvc', formatCvc(event.target.value, cardDigits(fields.number)))}
              placeholder="CVC"
              inputMode="numeric"
              autoComplete="cc-csc"
              disabled={locked}
              className="font-mono"
              {...invalidProps('cvc')}
              data-testid="card-cvc"
            />
            {fieldError('cvc')}
          </div>
        </div>
        <TestCardsNote mode={mode} />
        <Button type="submit" size="lg" className="w-full" disabled={locked} data-testid="payment-submit">
          {phase === 'succeeded' ? (
            <CircleCheck aria-hidden="true" />
          ) : locked ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <Lock aria-hidden="true" />
          )}
          {phase === 'succeeded'
            ? mode === 'setup'
              ? 'Card saved'
              : 'Payment complete'
            : locked
              ? 'Processing...'
              : submitLabel}
        </Button>
      </form>
      <AuthenticationDialog
        open={phase === 'authenticating'}
        pending={authenticate.isPending}
        onAnswer={answerAuthentication}
      />
    </>
  );
}
