import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { useSignInMutation } from '../../lib/api/auth.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { AuthCard, ExternalSignIn, Field, PasswordField } from './auth-form-parts.tsx';
import { externalSignInError } from './external-sign-in-errors.ts';
import { toSigninBody, validateSignIn } from './signin-validation.ts';

export function SignInPage() {
  usePageTitle('Log In');
  const { user } = useAuth();
  const navigate = useNavigate();
  const signIn = useSignInMutation();
  const [handle, setHandle] = useState('');
  const [password, setPassword] = useState('');
  const [searchParams] = useSearchParams();
  const externalError = externalSignInError(searchParams.get('error'));

  if (user) return <Navigate to="/dashboard" replace />;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validateSignIn({ handle, password });
    if (problem) {
      errorToast(problem.title, problem.description);
      return;
    }
    signIn.mutate(toSigninBody({ handle, password }), {
      onSuccess: () => navigate('/dashboard', { replace: true }),
      onError: (error) => errorToast('Sign In Failed', errorMessage(error, 'Invalid credentials')),
    });
  }

  return (
    <AuthCard title="Welcome back" description="Log in to shop live streams and run your storefront.">
      {externalError && (
        <p role="alert" className="rounded-md border border-red-500/50 p-3 text-red-300 text-sm">
          {externalError}
        </p>
      )}
      <ExternalSignIn />
      <form className="grid gap-4" onSubmit={onSubmit} noValidate aria-label="Log in">
        <Field
          label="Handle"
          name="handle"
          placeholder="@yourhandle"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={handle}
          onChange={(event) => setHandle(event.target.value)}
          data-testid="signin-handle"
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          data-testid="signin-password"
          toggleTestId="signin-password-toggle"
        />
        <p className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="text-muted-foreground hover:text-foreground hover:underline">
            Forgot password?
          </Link>
        </p>
        <Button type="submit" className="w-full" disabled={signIn.isPending} data-testid="signin-submit">
          {signIn.isPending ? 'Logging In...' : 'Log In'}
        </Button>
      </form>
      <div className="grid gap-2 text-center text-muted-foreground text-sm">
        <p>
          Don't have an account?{' '}
          <Link to="/signup" className="font-medium text-primary hover:underline">
            Sign up
          </Link>
        </p>
        <p>
          <Link to="/" className="hover:text-foreground hover:underline">
            Back to home
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}
