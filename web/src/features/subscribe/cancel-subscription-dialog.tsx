import { Loader2 } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { formatDate } from '../../lib/format-date.ts';
import { useCancelSubscriptionMutation } from './api.ts';

/** Asks before cancelling Pro; Pro stays until the end of the paid period. */
export function CancelSubscriptionDialog({
  open,
  currentPeriodEnd,
  onOpenChange,
}: {
  open: boolean;
  currentPeriodEnd: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  const cancel = useCancelSubscriptionMutation();
  const until = currentPeriodEnd ? formatDate(currentPeriodEnd) : null;

  function confirm() {
    cancel.mutate(undefined, {
      onSuccess: ({ subscription }) => {
        const end = subscription?.currentPeriodEnd ? formatDate(subscription.currentPeriodEnd) : null;
        toast({
          title: 'Subscription cancelled',
          description: end ? `You keep Pro until ${end}.` : 'Your Pro subscription was cancelled.',
        });
        onOpenChange(false);
      },
      onError: (error) => errorToast('Error', errorMessage(error, 'Something went wrong. Please try again.')),
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog" data-testid="cancel-subscription-dialog">
        <DialogHeader>
          <DialogTitle>Cancel your Pro subscription?</DialogTitle>
          <DialogDescription>
            {until ? `You keep Pro until ${until}. ` : ''}After that your account returns to the free plan
            with 99-second streams. Your streams and products stay safe.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={cancel.isPending}>
            Keep Pro
          </Button>
          <Button
            variant="destructive"
            onClick={confirm}
            disabled={cancel.isPending}
            data-testid="cancel-subscription-confirm"
          >
            {cancel.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            Cancel subscription
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
