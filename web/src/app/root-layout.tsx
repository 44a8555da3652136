import { Outlet, ScrollRestoration } from 'react-router';
import { useAuth } from '../features/auth/use-auth.ts';
import { Footer } from './footer.tsx';
import { FullScreenSpinner } from './full-screen-spinner.tsx';
import { NavBar } from './nav-bar.tsx';

/** The app shell. While the auth check is in flight a full-screen spinner replaces every route. */
export function RootLayout() {
  const { isLoading } = useAuth();
  if (isLoading) return <FullScreenSpinner />;
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-primary focus:px-3 focus:py-2 focus:text-primary-foreground"
      >
        Skip to content
      </a>
      <NavBar />
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
