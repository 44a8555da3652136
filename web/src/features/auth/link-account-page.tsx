import type { PendingAccountLink } from '@streamshop/contract/account-link.ts';
import type { OidcProvider } from '@streamshop/contract/auth.ts';
import {
  DEFAULT_RETURN_PATH,
  RETURN_PATH_PARAM,
  safeReturnPath,
  withReturnPath,
} from '@streamshop/contract/return-path.ts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import {
  externalSignInUrl,
  pendingLinkQueryOptions,
  useCancelLinkMutation,
  useLinkAccountMutation,
} from '../../lib/api/auth.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { AuthCard, PasswordField } from './auth-form-parts.tsx';

const PROVIDER_NAMES: Record<OidcProvider, string> = { google: 'Google', replit: 'Replit' };

function Alert({ children }: { children: string }) {
  return (
    <p role="alert" className="rounded-md border border-red-500/50 p-3 text-red-300 text-sm">
      {children}
    </p>
  );
}

/**
 * Where an external sign-in lands when its (verified) email belongs to an account it is not
 * linked to. It is never linked on the email alone: the account's password links it here, or,
 * for an account made with another provider, a sign-in with that provider.
 */
export function LinkAccountPage() {
  usePageTitle('Link Account');
  const pendingLink = useQuery(pendingLinkQueryOptions);
  // Where the sign-in that led here was going (the server passes ?next= on).
  const [searchParams] = useSearchParams();
  const next = safeReturnPath(searchParams.get(RETURN_PATH_PARAM));

  if (pendingLink.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-16">
        <Spinner className="size-8" label="Loading" />
      </div>
    );
  }
  if (pendingLink.isError) {
    return (
      <AuthCard title="Link your sign-in" description="Nothing is waiting to be linked.">
        <Alert>
          {errorMessage(pendingLink.error, 'No sign-in is waiting to be linked. Please sign in again.')}
        </Alert>
        <Button asChild className="w-full">
          <Link to={withReturnPath('/signin', next)}>Back to sign in</Link>
        </Button>
      </AuthCard>
    );
  }
  return <PendingLinkForm link={pendingLink.data} next={next} />;
}

function PendingLinkForm({ link, next }: { link: PendingAccountLink; next: string | undefined }) {
  const navigate = useNavigate();
  const linkAccount = useLinkAccountMutation();
  const cancelLink = useCancelLinkMutation();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const provider = PROVIDER_NAMES[link.provider];

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) {
      setProblem("Please enter that account's password.");
      return;
    }
    setProblem(null);
    linkAccount.mutate(
      { password },
      {
        onSuccess: () => {
          toast({ title: 'Account Linked', description: `Continue with ${provider} now signs you in.` });
          navigate(next ?? DEFAULT_RETURN_PATH, { replace: true });
        },
        onError: (error) => {
          setPassword('');
          setProblem(errorMessage(error, 'The account could not be linked. Please try again.'));
        },
      },
    );
  }

  function onCancel() {
    setProblem(null);
    cancelLink.mutate(undefined, {
      onSuccess: () => navigate(withReturnPath('/signin', next), { replace: true }),
      onError: (error) => setProblem(errorMessage(error, 'Cancelling failed. Please try again.')),
    });
  }

  const cancelButton = (
    <Button
      type="button"
      variant="outline"
      className="w-full"
      disabled={cancelLink.isPending || linkAccount.isPending}
      onClick={onCancel}
      data-testid="link-cancel"
    >
      Cancel
    </Button>
  );

  const description = (
    <>
      An account with <span className="font-medium text-foreground">{link.email}</span> already exists.
    </>
  );

  if (!link.hasPassword) {
    const firstWay = link.signInWith.map((id) => PROVIDER_NAMES[id]).join(' or ');
    return (
      <AuthCard title={`Link your ${provider} sign-in`} description={description}>
        <p className="text-sm" data-testid="link-explanation">
          {firstWay
            ? `That account has no password: it signs in with ${firstWay}. Continue with ${firstWay}, the way you first signed in, and your ${provider} sign-in is linked to it as well.`
            : `That account has no password, so your ${provider} sign-in cannot be linked to it here.`}
        </p>
        {problem && <Alert>{problem}</Alert>}
        <div className="grid gap-3">
          {link.signInWith.map((id) => (
            // A full page navigation: the server runs the provider's redirect.
            <Button key={id} asChild className="w-full">
              <a href={externalSignInUrl(id, next)} data-testid={`link-continue-${id}`}>
                Continue with {PROVIDER_NAMES[id]}
              </a>
            </Button>
          ))}
          {cancelButton}
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={`Link your ${provider} sign-in`} description={description}>
      <p className="text-sm" data-testid="link-explanation">
        {`Enter that account's password to link your ${provider} sign-in to it. After that, Continue with ${provider} signs you straight in.`}
      </p>
      {problem && <Alert>{problem}</Alert>}
      <form className="grid gap-4" onSubmit={onSubmit} noValidate aria-label="Link account">
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          data-testid="link-password"
          toggleTestId="link-password-toggle"
        />
        <div className="grid gap-3">
          <Button type="submit" className="w-full" disabled={linkAccount.isPending} data-testid="link-submit">
            {linkAccount.isPending ? 'Linking...' : 'Link Account'}
          </Button>
          {cancelButton}
        </div>
      </form>
    </AuthCard>
  );
}
