/** What the OpenID Connect callback's `/signin?error=<code>` means, in words for the person. */
const MESSAGES: Record<string, string> = {
  access_denied: 'Sign-in was cancelled at the provider.',
  provider_error: 'The sign-in provider reported an error. Please try again.',
  provider_unavailable: 'The sign-in provider could not be reached. Please try again in a moment.',
  expired: 'The sign-in attempt expired. Please start again.',
  state_mismatch: 'The sign-in attempt could not be verified. Please start again.',
  token_exchange_failed: 'The sign-in provider did not confirm your sign-in. Please try again.',
  email_required: 'The provider did not share an email address, which an account needs.',
  email_in_use: 'An account with that email already exists. Log in with your handle and password.',
  email_unconfirmed:
    'An account already uses this email address but has not confirmed it. Log in with your handle and password and confirm your email from the link we sent; then you can link this sign-in to it.',
  email_linked: 'The account with that email already signs in with a different account at this provider.',
  signin_failed: 'Sign-in with the provider failed. Please try again.',
  // A bookmark or an old page's button for a provider this server is not configured for.
  google_not_configured:
    'Google sign-in is not available on this site. Log in or sign up with a handle and password.',
  replit_not_configured:
    'Replit sign-in is not available on this site. Log in or sign up with a handle and password.',
};

export function externalSignInError(code: string | null): string | undefined {
  if (!code) return undefined;
  return MESSAGES[code] ?? MESSAGES.signin_failed;
}
