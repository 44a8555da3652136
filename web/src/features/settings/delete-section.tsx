import type { User } from '@streamshop/contract/auth.ts';
import { Download, Loader2, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage, extractFieldErrors } from '../../lib/api/client.ts';
import { ACCOUNT_EXPORT_URL, useDeleteAccountMutation } from './api.ts';
import { sentence } from './settings-form.ts';
import { SettingsField, SettingsSection } from './settings-parts.tsx';

/** Download the data, then delete the account (confirmed by the password, or the handle without one). */
export function DeleteAccountSection({ user, hasPassword }: { user: User; hasPassword: boolean }) {
  const [open, setOpen] = useState(false);
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | undefined>();
  const remove = useDeleteAccountMutation();
  const navigate = useNavigate();

  function onOpenChange(next: boolean) {
    if (remove.isPending) return;
    setOpen(next);
    setConfirmation('');
    setError(undefined);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!confirmation) {
      setError(hasPassword ? 'Enter your password' : 'Type your handle');
      return;
    }
    remove.mutate(hasPassword ? { password: confirmation } : { handle: confirmation }, {
      onSuccess: () => {
        toast({ title: 'Account deleted', description: 'Thank you for having been part of StreamShop.' });
        navigate('/', { replace: true });
      },
      onError: (failure) => {
        const fields = extractFieldErrors(failure);
        const reason = fields.password ?? fields.handle;
        setError(reason ? sentence(reason) : errorMessage(failure, 'Your account could not be deleted.'));
      },
    });
  }

  return (
    <SettingsSection
      title="Delete account"
      description="Your profile, products, streams and sign-ins go. Orders and payments stay on record without your name or address, because the other party and the tax rules need them."
      testId="settings-delete"
      danger
    >
      <div className="flex flex-wrap gap-2">
        <a
          href={ACCOUNT_EXPORT_URL}
          download
          className={buttonClasses({ variant: 'outline' })}
          data-testid="export-data"
        >
          <Download aria-hidden="true" />
          Download my data
        </a>
        <Button variant="destructive" onClick={() => setOpen(true)} data-testid="delete-account">
          <Trash2 aria-hidden="true" />
          Delete account
        </Button>
      </div>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent role="alertdialog" data-testid="delete-account-dialog">
          <form onSubmit={onSubmit} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Delete @{user.handle} for good?</DialogTitle>
              <DialogDescription>
                This cannot be undone. Live streams end, your products leave the marketplace and you are
                signed out everywhere.
              </DialogDescription>
            </DialogHeader>
            {hasPassword ? (
              <SettingsField
                label="Your password"
                type="password"
                autoComplete="current-password"
                value={confirmation}
                onChange={(event) => {
                  setConfirmation(event.target.value);
                  setError(undefined);
                }}
                error={error}
                data-testid="delete-confirmation"
              />
            ) : (
              <SettingsField
                label={`Type your handle (${user.handle}) to confirm`}
                autoComplete="off"
                value={confirmation}
                onChange={(event) => {
                  setConfirmation(event.target.value);
                  setError(undefined);
                }}
                error={error}
                data-testid="delete-confirmation"
              />
            )}
            <DialogFooter>
              <Button
                type="button"
                variant="outline"
                onClick={() => onOpenChange(false)}
                disabled={remove.isPending}
              >
                Keep my account
              </Button>
              <Button
                type="submit"
                variant="destructive"
                disabled={remove.isPending}
                data-testid="delete-confirm"
              >
                {remove.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                Delete my account
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </SettingsSection>
  );
}
