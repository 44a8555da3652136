import {
  DEFAULT_RETURN_PATH,
  RETURN_PATH_PARAM,
  safeReturnPath,
  withReturnPath,
} from '@streamshop/contract/return-path.ts';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { useSignInMutation } from '../../lib/api/auth.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { AuthCard, ExternalSignIn, Field, PasswordField } from './auth-form-parts.tsx';
import { externalSignInError } from './external-sign-in-errors.ts';
import { SIGN_IN_LABELS, toSigninBody, validateSignIn } from './signin-validation.ts';

export function SignInPage() {
  usePageTitle('Log In');
  const { user } = useAuth();
  const navigate = useNavigate();
  const signIn = useSignInMutation();
  const [handle, setHandle] = useState('');
  const [password, setPassword] = useState('');
  const fieldErrors = useFieldErrors(SIGN_IN_LABELS);
  const [searchParams] = useSearchParams();
  const externalError = externalSignInError(searchParams.get('error'));
  // A signed-out Buy Now sends ?next=/checkout/<id>: back there once signed in.
  const next = safeReturnPath(searchParams.get(RETURN_PATH_PARAM));
  const destination = next ?? DEFAULT_RETURN_PATH;

  if (user) return <Navigate to={destination} replace />;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validateSignIn({ handle, password });
    if (problem) {
      fieldErrors.show({ [problem.field]: problem.message ?? problem.description });
      errorToast(problem.title, problem.description);
      return;
    }
    fieldErrors.clearAll();
    signIn.mutate(toSigninBody({ handle, password }), {
      onSuccess: () => navigate(destination, { replace: true }),
      onError: (error) => {
        fieldErrors.showServer(error);
        errorToast('Sign In Failed', errorMessage(error, 'Invalid credentials'));
      },
    });
  }

  return (
    <AuthCard title="Welcome back" description="Log in to shop live streams and run your storefront.">
      {externalError && (
        <p role="alert" className="rounded-md border border-red-500/50 p-3 text-red-300 text-sm">
          {externalError}
        </p>
      )}
      <ExternalSignIn next={next} />
      <form
        ref={fieldErrors.formRef}
        className="grid gap-4"
        onSubmit={onSubmit}
        noValidate
        aria-label="Log in"
      >
        <Field
          label={SIGN_IN_LABELS.handle}
          name="handle"
          placeholder="@yourhandle or you@example.com"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={handle}
          onChange={(event) => {
            setHandle(event.target.value);
            fieldErrors.clear('handle');
          }}
          error={fieldErrors.errors.handle}
          data-testid="signin-handle"
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            fieldErrors.clear('password');
          }}
          error={fieldErrors.errors.password}
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
          <Link to={withReturnPath('/signup', next)} className="font-medium text-primary hover:underline">
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
