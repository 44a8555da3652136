import type { FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useChangePasswordMutation } from './api.ts';
import { type PasswordFormValues, validatePasswordChange } from './settings-form.ts';
import { SettingsField, SettingsSection } from './settings-parts.tsx';
import { useSettingsForm } from './use-settings-form.ts';

const EMPTY: PasswordFormValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** A new password, given the current one; every other device is signed out. */
export function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const form = useSettingsForm(EMPTY);
  const { values } = form;
  const change = useChangePasswordMutation();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.accepts(validatePasswordChange(values))) return;
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      {
        onSuccess: ({ otherSessionsEnded }) => {
          form.setValues(EMPTY);
          toast({
            title: 'Password changed',
            description:
              otherSessionsEnded > 0
                ? `${otherSessionsEnded} other ${otherSessionsEnded === 1 ? 'device was' : 'devices were'} signed out.`
                : 'You stay signed in here.',
          });
        },
        onError: (error) => form.refused(error, 'Your password could not be changed.'),
      },
    );
  }

  return (
    <SettingsSection
      title="Password"
      description="Changing it signs you out on every other device; this one stays signed in."
      testId="settings-password"
    >
      {hasPassword ? (
        <form className="grid gap-4" onSubmit={onSubmit} noValidate aria-label="Change password">
          <SettingsField
            label="Current password"
            type="password"
            {...form.field('currentPassword')}
            autoComplete="current-password"
            data-testid="password-current"
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <SettingsField
              label="New password"
              type="password"
              {...form.field('newPassword')}
              autoComplete="new-password"
              data-testid="password-new"
            />
            <SettingsField
              label="Confirm new password"
              type="password"
              {...form.field('confirmPassword')}
              autoComplete="new-password"
              data-testid="password-confirm"
            />
          </div>
          <div>
            <Button type="submit" disabled={change.isPending} data-testid="password-save">
              {change.isPending ? 'Saving...' : 'Change password'}
            </Button>
          </div>
        </form>
      ) : (
        <p className="text-muted-foreground text-sm" data-testid="password-none">
          Your account signs in through an identity provider and has no password here.
        </p>
      )}
    </SettingsSection>
  );
}
