import type { ReactNode } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { VerifyEmailBanner } from '../features/auth/verify-email-banner.tsx';
import { useAuth } from '../lib/session/use-auth.ts';
import { useShowsAuthSpinner } from './assume-signed-out.tsx';
import { Footer } from './footer.tsx';
import { FullScreenSpinner } from './full-screen-spinner.tsx';
import { NavBar } from './nav-bar.tsx';

/**
 * While the auth check is in flight a full-screen spinner replaces every route, except a
 * prerendered marketing page being hydrated (see useShowsAuthSpinner). It takes the shell as
 * children: when the check answers only this re-renders, not the page inside (its element is the
 * same), so a hydrated page is not drawn again for nothing.
 */
function AuthGate({ children }: { children: ReactNode }) {
  const { isLoading } = useAuth();
  const showsSpinner = useShowsAuthSpinner(isLoading);
  return showsSpinner ? <FullScreenSpinner /> : children;
}

/** The app shell. */
export function RootLayout() {
  return (
    <AuthGate>
      <div className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-primary focus:px-3 focus:py-2 focus:text-primary-foreground"
        >
          Skip to content
        </a>
        {/* The site's chrome; the phone's immersive live room hides it (features/room/immersive.ts). */}
        <div data-site-chrome="" className="contents">
          <NavBar />
          <VerifyEmailBanner />
        </div>
        <main id="main" className="flex flex-1 flex-col">
          <Outlet />
        </main>
        <div data-site-chrome="" className="contents">
          <Footer />
        </div>
        <ScrollRestoration />
      </div>
    </AuthGate>
  );
}
