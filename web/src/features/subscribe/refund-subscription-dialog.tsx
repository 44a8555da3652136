import { PRO_PRICE_CENTS } from '@streamshop/contract/constants.ts';
import { PLAN_VIDEO } from '@streamshop/contract/ingest.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { formatDate } from '../../lib/format-date.ts';
import { useRefundSubscriptionMutation } from './api.ts';

/** Asks before the money-back refund: the payment comes back and the plan is free at once. */
export function RefundSubscriptionDialog({
  open,
  refundableUntil,
  onOpenChange,
}: {
  open: boolean;
  refundableUntil: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  const refund = useRefundSubscriptionMutation();
  const until = refundableUntil ? formatDate(refundableUntil) : null;

  function confirm() {
    refund.mutate(undefined, {
      onSuccess: () => {
        toast({
          title: 'Refund on its way',
          description: `Your ${formatCents(PRO_PRICE_CENTS)} comes back to your card, and your account is on the free plan now.`,
        });
        onOpenChange(false);
      },
      onError: (error) =>
        errorToast('Refund Failed', errorMessage(error, 'Something went wrong. Please try again.')),
    });
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Get your money back?"
      description={
        <>
          We refund your {formatCents(PRO_PRICE_CENTS)} in full and your account returns to the free plan
          right away: 99-second streams at up to {PLAN_VIDEO.free.label}. A stream that is live now keeps Pro
          until it ends. The money-back guarantee can be used once per account
          {until ? `; yours is open until ${until}` : ''}.
        </>
      }
      cancelLabel="Keep Pro"
      confirmLabel="Refund and end Pro"
      pending={refund.isPending}
      onConfirm={confirm}
      testId="refund-subscription-dialog"
      confirmTestId="refund-subscription-confirm"
    />
  );
}
