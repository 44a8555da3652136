import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { useConfirmEmailMutation } from './api.ts';

/** /confirm-email?token=…: the link mailed to a new address; it makes the change as it opens. */
export function ConfirmEmailPage() {
  usePageTitle('Confirm your new email');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const { user } = useAuth();
  const confirm = useConfirmEmailMutation();
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current || !token) return;
    asked.current = true;
    confirm.mutate(token);
  }, [token, confirm]);

  let body: React.ReactNode;
  if (!token) {
    body = <Problem>This link is not complete. Open the whole link from the email.</Problem>;
  } else if (confirm.isSuccess) {
    body = (
      <p role="status" className="text-center text-sm" data-testid="email-changed">
        Done! Your account now uses {confirm.data.email}.
      </p>
    );
  } else if (confirm.isError) {
    body = <Problem>{errorMessage(confirm.error, 'Something went wrong. Please try again.')}</Problem>;
  } else {
    body = (
      <p role="status" className="flex items-center justify-center gap-2 text-muted-foreground text-sm">
        <Spinner className="size-4" /> Confirming your new address…
      </p>
    );
  }

  return (
    <div className="flex flex-1 items-start justify-center px-4 py-10 sm:py-16">
      <Card className="w-full max-w-md">
        <CardHeader className="text-center">
          <CardTitle className="text-2xl">Confirm your new email</CardTitle>
          <CardDescription>The link from your inbox brings you here.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          {body}
          <div className="flex justify-center">
            <Link to={user ? '/settings' : '/signin'} className={buttonClasses({ variant: 'outline' })}>
              {user ? 'Back to settings' : 'Log in'}
            </Link>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}

function Problem({ children }: { children: React.ReactNode }) {
  return (
    <p
      role="alert"
      className="rounded-md border border-red-500/50 p-3 text-red-300 text-sm"
      data-testid="confirm-email-error"
    >
      {children}
    </p>
  );
}
