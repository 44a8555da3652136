import type { BetaSource } from '@streamshop/contract/disc.ts';
import { Mail } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { errorToast } from '../../../lib/error-toast.ts';
import { useFormDialogFlow } from '../../../lib/use-form-dialog-flow.ts';
import { useBetaSignupMutation } from '../api.ts';
import { discFormErrorMessage, submittedEmail } from '../form-helpers.ts';
import { BETA_TOAST_MS, SUCCESS_VIEW_MS } from '../timings.ts';
import { type BetaDialogTexts, JOIN_BETA_TEXTS } from './beta-texts.ts';

/**
 * Email sign-up for beta access. On success it shows the success view for 3 s, closes, and then
 * raises the 5 s 'You're in!' toast. A blank email (after trimming) sends nothing.
 */
export function BetaSignupDialog({
  open,
  onOpenChange,
  source,
  texts = JOIN_BETA_TEXTS,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  source: BetaSource;
  texts?: BetaDialogTexts;
}) {
  const emailId = useId();
  const [email, setEmail] = useState('');
  const signup = useBetaSignupMutation();
  const {
    answer: succeeded,
    succeed,
    handleOpenChange,
  } = useFormDialogFlow<true>({
    successViewMs: SUCCESS_VIEW_MS,
    onOpenChange,
    reset: () => {
      setEmail('');
      signup.reset();
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = submittedEmail(email);
    if (!trimmed || signup.isPending) return;
    signup.mutate(
      { email: trimmed, source },
      {
        onSuccess: () =>
          succeed(true, () =>
            toast({
              title: "You're in!",
              description: "Thanks for signing up for beta access. We'll notify you when we launch!",
              duration: BETA_TOAST_MS,
            }),
          ),
        onError: (error) => errorToast('Signup failed', discFormErrorMessage(error, 'beta'), BETA_TOAST_MS),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent data-testid="beta-dialog">
        {succeeded ? (
          <div className="ss-pop grid justify-items-center gap-2 py-6 text-center" data-testid="beta-success">
            {texts.successShout ? (
              <p className="bg-gradient-to-r from-yellow-300 via-pink-400 to-purple-400 bg-clip-text font-black text-6xl text-transparent italic tracking-tight">
                {texts.successShout}
              </p>
            ) : null}
            <DialogTitle className="text-3xl">{texts.successTitle}</DialogTitle>
            <DialogDescription className="text-base">{texts.successText}</DialogDescription>
          </div>
        ) : (
          <form onSubmit={submit} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{texts.title}</DialogTitle>
              <DialogDescription>{texts.description}</DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor={emailId}>Email</Label>
              <Input
                id={emailId}
                type="email"
                required
                autoComplete="email"
                placeholder="you@example.com"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                data-testid="beta-email"
              />
            </div>
            <Button type="submit" size="lg" disabled={signup.isPending} data-testid="beta-submit">
              <Mail aria-hidden="true" />
              {signup.isPending ? texts.pendingLabel : texts.submitLabel}
            </Button>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
