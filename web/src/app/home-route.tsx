import { lazy, Suspense } from 'react';
import { Spinner } from '../components/ui/spinner.tsx';
import { useAuth } from '../features/auth/use-auth.ts';

const LandingPage = lazy(async () => ({
  default: (await import('../features/marketing/landing-page.tsx')).LandingPage,
}));
const MarketplacePage = lazy(async () => ({
  default: (await import('../features/catalog/marketplace-page.tsx')).MarketplacePage,
}));

/** '/': the marketplace for signed-in users, the landing page for everyone else. */
export function HomeRoute() {
  const { user } = useAuth();
  return (
    <Suspense
      fallback={
        <div className="flex flex-1 items-center justify-center py-24">
          <Spinner />
        </div>
      }
    >
      {user ? <MarketplacePage /> : <LandingPage />}
    </Suspense>
  );
}
