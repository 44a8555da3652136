import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useVerifyEmailMutation } from '../../lib/api/account-recovery.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { AuthCard } from './auth-form-parts.tsx';
import { ResendVerificationButton } from './resend-verification-button.tsx';

/** /verify-email?token=…: the mailed link's page; it confirms the address as it opens. */
export function VerifyEmailPage() {
  usePageTitle('Confirm your email');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const { user } = useAuth();
  const verify = useVerifyEmailMutation();
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current || !token) return;
    asked.current = true;
    verify.mutate(token);
  }, [token, verify]);

  let body: React.ReactNode;
  if (!token) {
    body = <Problem>This link is not complete. Open the whole link from the email.</Problem>;
  } else if (verify.isSuccess) {
    body = (
      <p role="status" className="text-center text-sm" data-testid="email-verified">
        Thank you! {verify.data.email} is confirmed.
      </p>
    );
  } else if (verify.isError) {
    body = <Problem>{errorMessage(verify.error, 'Something went wrong. Please try again.')}</Problem>;
  } else {
    body = (
      <p role="status" className="flex items-center justify-center gap-2 text-muted-foreground text-sm">
        <Spinner className="size-4" /> Confirming your email…
      </p>
    );
  }

  const failed = !token || verify.isError;
  return (
    <AuthCard title="Confirm your email" description="The link from your inbox brings you here.">
      {body}
      <div className="flex flex-wrap justify-center gap-2">
        {failed && user && !user.emailVerified ? <ResendVerificationButton /> : null}
        <Link to={user ? '/dashboard' : '/signin'} className={buttonClasses({ variant: 'outline' })}>
          {user ? 'Go to your dashboard' : 'Log in'}
        </Link>
      </div>
    </AuthCard>
  );
}

function Problem({ children }: { children: React.ReactNode }) {
  return (
    <p
      role="alert"
      className="rounded-md border border-red-500/50 p-3 text-red-300 text-sm"
      data-testid="verify-error"
    >
      {children}
    </p>
  );
}
