/** Why an external sign-in could not complete (spec section 2: the sign-in page's provider buttons). */

/** Short, stable codes the callback hands to /signin?error=<code>. */
export type OidcErrorCode =
  | 'access_denied'
  | 'provider_error'
  | 'provider_unavailable'
  | 'expired'
  | 'state_mismatch'
  | 'token_exchange_failed'
  | 'email_required'
  | 'email_in_use'
  | 'email_unconfirmed'
  | 'email_linked'
  | 'signin_failed';

/** A sign-in that cannot complete; `code` is safe to show, `message` is for logs. */
export class OidcFlowError extends Error {
  constructor(
    readonly code: OidcErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
