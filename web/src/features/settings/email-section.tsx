import type { User } from '@streamshop/contract/auth.ts';
import { BadgeCheck, MailWarning } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { useChangeEmailMutation } from './api.ts';
import { type EmailFormValues, validateEmailChange } from './settings-form.ts';
import { SettingsField, SettingsSection } from './settings-parts.tsx';
import { useSettingsForm } from './use-settings-form.ts';

const EMPTY: EmailFormValues = { email: '', currentPassword: '' };

/** A new address takes effect when the link mailed to it is opened. */
export function EmailSection({ user, hasPassword }: { user: User; hasPassword: boolean }) {
  const form = useSettingsForm(EMPTY);
  const { values } = form;
  const change = useChangeEmailMutation();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.accepts(validateEmailChange(values, user.email))) return;
    change.mutate(values, {
      onSuccess: () => form.setValues(EMPTY),
      onError: (error) => form.refused(error, 'Your address could not be changed.'),
    });
  }

  return (
    <SettingsSection
      title="Email address"
      description="Where receipts and account messages go. A new address counts once you confirm it."
      testId="settings-email"
    >
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium" data-testid="settings-current-email">
          {user.email}
        </span>
        {user.emailVerified ? (
          <span className="inline-flex items-center gap-1 text-emerald-400 text-xs">
            <BadgeCheck className="size-4" aria-hidden="true" /> Confirmed
          </span>
        ) : (
          <span className="inline-flex items-center gap-1 text-amber-400 text-xs">
            <MailWarning className="size-4" aria-hidden="true" /> Not confirmed yet
          </span>
        )}
      </p>
      {change.isSuccess ? (
        <p
          role="status"
          className="rounded-md border border-emerald-500/40 p-3 text-emerald-300 text-sm"
          data-testid="email-change-sent"
        >
          {change.data.message}
        </p>
      ) : null}
      {hasPassword ? (
        <form className="grid gap-4" onSubmit={onSubmit} noValidate aria-label="Change email address">
          <div className="grid gap-4 sm:grid-cols-2">
            <SettingsField
              label="New email address"
              type="email"
              {...form.field('email')}
              autoComplete="email"
              data-testid="email-new"
            />
            <SettingsField
              label="Current password"
              type="password"
              {...form.field('currentPassword')}
              autoComplete="current-password"
              data-testid="email-password"
            />
          </div>
          <div>
            <Button type="submit" disabled={change.isPending} data-testid="email-save">
              {change.isPending ? 'Sending...' : 'Send confirmation link'}
            </Button>
          </div>
        </form>
      ) : (
        <p className="text-muted-foreground text-sm">
          Your account has no password, which an address change needs to confirm it is you.
        </p>
      )}
    </SettingsSection>
  );
}
