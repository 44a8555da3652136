import { Spinner } from '../components/ui/spinner.tsx';

/** Replaces every route while the auth state loads (spec section 2). */
export function FullScreenSpinner() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-background" data-testid="auth-loading">
      <Spinner className="size-10" label="Loading StreamShop" />
    </div>
  );
}
