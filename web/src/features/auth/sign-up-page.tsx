import { signupBodySchema } from '@streamshop/contract/auth.ts';
import { PLAN_STREAM_SECONDS } from '@streamshop/contract/constants.ts';
import {
  DEFAULT_RETURN_PATH,
  RETURN_PATH_PARAM,
  safeReturnPath,
  withReturnPath,
} from '@streamshop/contract/return-path.ts';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { PolicyLinks } from '../../components/policy-links.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useSignUpMutation } from '../../lib/api/auth.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { fieldErrorsFromIssues } from '../../lib/form-errors.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { AuthCard, ExternalSignIn, Field, PasswordField } from './auth-form-parts.tsx';
import { SIGN_UP_LABELS, type SignUpForm, toSignupBody, validateSignUp } from './signup-validation.ts';

const emptyForm: SignUpForm = {
  firstName: '',
  lastName: '',
  email: '',
  handle: '',
  password: '',
  confirmPassword: '',
  businessName: '',
};

function signUpFailed(description: string) {
  errorToast('Sign Up Failed', description);
}

export function SignUpPage() {
  usePageTitle('Sign Up');
  const { user } = useAuth();
  const navigate = useNavigate();
  const signUp = useSignUpMutation();
  const [form, setForm] = useState<SignUpForm>(emptyForm);
  const fieldErrors = useFieldErrors(SIGN_UP_LABELS);
  // Sign-up signs the new account in at once (confirming the email can wait), so ?next= (a
  // signed-out Buy Now) is followed straight away, as sign-in does.
  const [searchParams] = useSearchParams();
  const next = safeReturnPath(searchParams.get(RETURN_PATH_PARAM));
  const destination = next ?? DEFAULT_RETURN_PATH;

  if (user) return <Navigate to={destination} replace />;

  const bind = (key: keyof SignUpForm) => ({
    name: key,
    value: form[key],
    onChange: (event: { target: { value: string } }) => {
      setForm((current) => ({ ...current, [key]: event.target.value }));
      fieldErrors.clear(key);
    },
    error: fieldErrors.errors[key],
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validateSignUp(form);
    if (problem) {
      fieldErrors.show({ [problem.field]: problem.message ?? problem.description });
      errorToast(problem.title, problem.description);
      return;
    }
    const body = toSignupBody(form);
    // The server validates with the same schema; checking here saves a round trip.
    const parsed = signupBodySchema.safeParse(body);
    if (!parsed.success) {
      fieldErrors.show(fieldErrorsFromIssues(parsed.error.issues, SIGN_UP_LABELS));
      signUpFailed(parsed.error.issues[0]?.message ?? 'Failed to create account');
      return;
    }
    fieldErrors.clearAll();
    signUp.mutate(body, {
      onSuccess: () => navigate(destination, { replace: true }),
      // The server's message names the problem (e.g. 'That handle is already taken').
      // Its fields ('is already taken') show by the inputs, in words.
      onError: (error) => {
        fieldErrors.showServer(error);
        signUpFailed(errorMessage(error, 'Failed to create account'));
      },
    });
  }

  return (
    <AuthCard
      title="Create your account"
      description="Join StreamShop to sell live, keep a storefront and shop from creators."
    >
      <ExternalSignIn next={next} />
      <form
        ref={fieldErrors.formRef}
        className="grid gap-4"
        onSubmit={onSubmit}
        noValidate
        aria-label="Sign up"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="First Name"
            autoComplete="given-name"
            data-testid="signup-first-name"
            {...bind('firstName')}
          />
          <Field
            label="Last Name"
            autoComplete="family-name"
            data-testid="signup-last-name"
            {...bind('lastName')}
          />
        </div>
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          data-testid="signup-email"
          {...bind('email')}
        />
        <Field
          label="Handle"
          placeholder="@yourhandle"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          hint="Your storefront lives at /s/yourhandle. Letters, numbers and _."
          data-testid="signup-handle"
          {...bind('handle')}
        />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          data-testid="signup-password"
          toggleTestId="signup-password-toggle"
          {...bind('password')}
        />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          data-testid="signup-confirm-password"
          toggleTestId="signup-confirm-password-toggle"
          {...bind('confirmPassword')}
        />
        <Field
          label="Business Name (optional)"
          autoComplete="organization"
          hint="Shown on your storefront."
          data-testid="signup-business-name"
          {...bind('businessName')}
        />
        <Button type="submit" className="w-full" disabled={signUp.isPending} data-testid="signup-submit">
          {signUp.isPending ? 'Creating Account...' : 'Create Account'}
        </Button>
      </form>
      <p className="text-center text-muted-foreground text-xs" data-testid="signup-terms">
        By creating an account you agree to our <PolicyLinks />. Free accounts have {PLAN_STREAM_SECONDS.free}
        -second streams; upgrade to Pro any time for longer ones.
      </p>
      <div className="grid gap-2 text-center text-muted-foreground text-sm">
        <p>
          Already have an account?{' '}
          <Link to={withReturnPath('/signin', next)} className="font-medium text-primary hover:underline">
            Log in
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
