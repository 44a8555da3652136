import { type ComponentType, lazy, Suspense, useMemo } from 'react';
import { Spinner } from '../components/ui/spinner.tsx';
import { useAuth } from '../lib/session/use-auth.ts';

type LandingModule = typeof import('../features/marketing/landing-page.tsx');
let landingModule: Promise<LandingModule> | undefined;
let landingLoaded: LandingModule | undefined;
const loadLanding = () => {
  landingModule ??= import('../features/marketing/landing-page.tsx').then((module) => {
    landingLoaded = module;
    return module;
  });
  return landingModule;
};

/** Starts loading the signed-out home page (before hydrating a prerendered '/'). */
export const preloadHomePage = async (): Promise<void> => {
  await loadLanding();
};

/**
 * Once loaded (preloadHomePage), the landing page is handed to React.lazy as an already settled
 * thenable, so it renders at once instead of suspending for a tick: hydrating a prerendered '/'
 * then leaves no part of the page waiting, inert to clicks.
 */
const settled = <T,>(value: T) =>
  // biome-ignore lint/suspicious/noThenProperty: a thenable that settles synchronously is the point
  ({ then: (resolve: (value: T) => void) => resolve(value) }) as unknown as Promise<T>;
const LandingPage = lazy((): Promise<{ default: ComponentType }> => {
  if (landingLoaded) return settled({ default: landingLoaded.LandingPage });
  return loadLanding().then((module) => ({ default: module.LandingPage }));
});
const MarketplacePage = lazy(async () => ({
  default: (await import('../features/catalog/marketplace-page.tsx')).MarketplacePage,
}));

/** '/': the marketplace for signed-in users, the landing page for everyone else. */
export function HomeRoute() {
  const { user } = useAuth();
  const signedIn = user !== null;
  // The same element while signed in-ness stays: the auth check answering 'signed out' on a
  // hydrated landing page does not draw it again.
  const page = useMemo(() => (signedIn ? <MarketplacePage /> : <LandingPage />), [signedIn]);
  return (
    <Suspense
      fallback={
        <div className="flex flex-1 items-center justify-center py-24">
          <Spinner />
        </div>
      }
    >
      {page}
    </Suspense>
  );
}
