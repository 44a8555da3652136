import { Loader2, ShieldCheck } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../ui/dialog.tsx';

/**
 * The card issuer's extra confirmation step (3-D Secure) as the local provider simulates it.
 * Closing the dialog counts as failing the step, as it does with a real bank.
 */
export function AuthenticationDialog({
  open,
  pending,
  onAnswer,
}: {
  open: boolean;
  pending: boolean;
  onAnswer: (approve: boolean) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onAnswer(false);
      }}
    >
      <DialogContent data-testid="authentication-dialog">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <ShieldCheck className="size-5 text-primary" aria-hidden="true" />
            Confirm this payment
          </DialogTitle>
          <DialogDescription>
            Your bank asks you to confirm this payment before it goes through. This is a test: no bank is
            contacted, so choose how the confirmation ends.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button
            variant="outline"
            onClick={() => onAnswer(false)}
            disabled={pending}
            data-testid="authentication-fail"
          >
            Fail authentication
          </Button>
          <Button onClick={() => onAnswer(true)} disabled={pending} data-testid="authentication-complete">
            {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            Complete authentication
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
