import { MailWarning, X } from 'lucide-react';
import { useState } from 'react';
import { useAuth } from '../../lib/session/use-auth.ts';
import { ResendVerificationButton } from './resend-verification-button.tsx';

const DISMISSED_KEY = 'streamshop:verify-banner-dismissed';

/** Asks a signed-in owner of an unverified address to confirm it; hidden for the tab once closed. */
export function VerifyEmailBanner() {
  const { user } = useAuth();
  const [dismissed, setDismissed] = useState(() => {
    try {
      return sessionStorage.getItem(DISMISSED_KEY) === '1';
    } catch {
      return false;
    }
  });
  if (!user || user.emailVerified || dismissed) return null;
  const dismiss = () => {
    setDismissed(true);
    try {
      sessionStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Private mode: hidden until the next page load.
    }
  };
  return (
    <section
      aria-label="Confirm your email"
      className="flex flex-wrap items-center gap-3 border-amber-500/40 border-b bg-amber-500/10 px-4 py-2 text-sm"
      data-testid="verify-email-banner"
    >
      <MailWarning className="size-4 shrink-0 text-amber-400" aria-hidden="true" />
      <p className="min-w-0 flex-1">
        Please confirm your email address: we sent a link to <strong>{user.email}</strong>.
      </p>
      <ResendVerificationButton size="sm" />
      <button
        type="button"
        onClick={dismiss}
        aria-label="Hide this message"
        className="rounded-sm p-1 opacity-70 hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </section>
  );
}
