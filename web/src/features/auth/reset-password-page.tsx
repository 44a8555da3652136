import { MIN_PASSWORD_LENGTH } from '@streamshop/contract/constants.ts';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { useResetPasswordMutation } from '../../lib/api/account-recovery.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { AuthCard, PasswordField } from './auth-form-parts.tsx';

/** /reset-password?token=…: the mailed link's page, where the new password is chosen. */
export function ResetPasswordPage() {
  usePageTitle('Choose a new password');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPasswordMutation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password.length < MIN_PASSWORD_LENGTH) {
      errorToast('Password Too Short', `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
      return;
    }
    if (password !== confirm) {
      errorToast("Passwords Don't Match", 'Please make sure both password fields match.');
      return;
    }
    reset.mutate(
      { token, password },
      {
        onSuccess: () => {
          toast({
            title: 'Password changed',
            description: 'You are signed in; every other device was signed out.',
          });
          navigate('/dashboard', { replace: true });
        },
      },
    );
  }

  const failure = reset.isError ? errorMessage(reset.error, 'Something went wrong. Please try again.') : null;

  return (
    <AuthCard title="Choose a new password" description="Pick a password you do not use anywhere else.">
      {!token ? (
        <p role="alert" className="rounded-md border border-red-500/50 p-3 text-red-300 text-sm">
          This link is not complete. Open the whole link from the email, or ask for a new one.
        </p>
      ) : (
        <form className="grid gap-4" onSubmit={onSubmit} noValidate aria-label="Choose a new password">
          {failure ? (
            <p
              role="alert"
              className="rounded-md border border-red-500/50 p-3 text-red-300 text-sm"
              data-testid="reset-error"
            >
              {failure}
            </p>
          ) : null}
          <PasswordField
            label="New password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            data-testid="reset-password"
          />
          <PasswordField
            label="Confirm new password"
            name="confirmPassword"
            autoComplete="new-password"
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
            data-testid="reset-password-confirm"
          />
          <Button type="submit" className="w-full" disabled={reset.isPending} data-testid="reset-submit">
            {reset.isPending ? 'Saving...' : 'Save new password'}
          </Button>
        </form>
      )}
      <p className="text-center text-muted-foreground text-sm">
        <Link to="/forgot-password" className="font-medium text-primary hover:underline">
          Ask for a new link
        </Link>
      </p>
    </AuthCard>
  );
}
