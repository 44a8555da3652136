import { EMAIL_PATTERN } from '@streamshop/contract/auth.ts';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { useRequestPasswordResetMutation } from '../../lib/api/account-recovery.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { AuthCard, Field } from './auth-form-parts.tsx';

/** /forgot-password: asks for the account's email and mails it a link to choose a new password. */
export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const request = useRequestPasswordResetMutation();
  const [email, setEmail] = useState('');
  const fieldErrors = useFieldErrors({ email: 'Email' });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (!address) {
      fieldErrors.show({ email: 'Please enter your email address.' });
      errorToast('Email Required', 'Please enter your email address.');
      return;
    }
    if (!EMAIL_PATTERN.test(address)) {
      fieldErrors.show({ email: 'Please enter a valid email address.' });
      errorToast('Invalid Email', 'Please enter a valid email address.');
      return;
    }
    fieldErrors.clearAll();
    request.mutate(address, {
      onError: (error) => {
        fieldErrors.showServer(error);
        errorToast('Request Failed', errorMessage(error, 'Something went wrong. Please try again.'));
      },
    });
  }

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter the email address of your account and we will send you a link to choose a new one."
    >
      {request.isSuccess ? (
        <p role="status" className="rounded-md border p-3 text-sm" data-testid="reset-requested">
          {request.data.message}
        </p>
      ) : (
        <form
          ref={fieldErrors.formRef}
          className="grid gap-4"
          onSubmit={onSubmit}
          noValidate
          aria-label="Forgot password"
        >
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              fieldErrors.clear('email');
            }}
            error={fieldErrors.errors.email}
            data-testid="forgot-email"
          />
          <Button type="submit" className="w-full" disabled={request.isPending} data-testid="forgot-submit">
            {request.isPending ? 'Sending...' : 'Send me a link'}
          </Button>
        </form>
      )}
      <p className="text-center text-muted-foreground text-sm">
        <Link to="/signin" className="font-medium text-primary hover:underline">
          Back to log in
        </Link>
      </p>
    </AuthCard>
  );
}
