import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
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
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Cancel your Pro subscription?"
      description={
        <>
          {until ? `You keep Pro until ${until}. ` : ''}After that your account returns to the free plan with
          99-second streams. Your streams and products stay safe.
        </>
      }
      cancelLabel="Keep Pro"
      confirmLabel="Cancel subscription"
      pending={cancel.isPending}
      onConfirm={confirm}
      testId="cancel-subscription-dialog"
      confirmTestId="cancel-subscription-confirm"
    />
  );
}
