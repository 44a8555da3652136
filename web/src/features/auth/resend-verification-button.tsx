import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useResendVerificationMutation } from '../../lib/api/account-recovery.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';

/** Mails a new verification link (a few times an hour at most: the server says when to wait). */
export function ResendVerificationButton({ size = 'default' }: { size?: 'default' | 'sm' }) {
  const resend = useResendVerificationMutation();
  return (
    <Button
      variant="outline"
      size={size}
      disabled={resend.isPending}
      data-testid="resend-verification"
      onClick={() =>
        resend.mutate(undefined, {
          onSuccess: ({ message }) => toast({ title: 'Link sent', description: message }),
          onError: (error) =>
            errorToast('Not Sent', errorMessage(error, 'Something went wrong. Please try again.')),
        })
      }
    >
      {resend.isPending ? 'Sending...' : 'Send a new link'}
    </Button>
  );
}
