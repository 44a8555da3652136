import { type ComponentProps, lazy, Suspense } from 'react';

/**
 * The form dialogs (and zod with them) load the first time a visitor opens one, so the pages'
 * first paint carries only the page itself.
 */
const BetaSignupDialogChunk = lazy(async () => ({
  default: (await import('./beta-signup-dialog.tsx')).BetaSignupDialog,
}));
const FoundersPreorderDialogChunk = lazy(async () => ({
  default: (await import('./founders-preorder-dialog.tsx')).FoundersPreorderDialog,
}));
const DiscOrderDialogChunk = lazy(async () => ({
  default: (await import('./disc-order-dialog.tsx')).DiscOrderDialog,
}));

const DiscReservationDialogChunk = lazy(async () => ({
  default: (await import('./disc-reservation-dialog.tsx')).DiscReservationDialog,
}));

type BetaProps = ComponentProps<typeof BetaSignupDialogChunk> & { loaded: boolean };
type FoundersProps = ComponentProps<typeof FoundersPreorderDialogChunk> & { loaded: boolean };
type OrderProps = ComponentProps<typeof DiscOrderDialogChunk> & { loaded: boolean };
type ReservationProps = ComponentProps<typeof DiscReservationDialogChunk> & { loaded: boolean };

/** `loaded` turns true on first open and stays true, so closing keeps the dialog's exit state. */
export function LazyBetaSignupDialog({ loaded, ...props }: BetaProps) {
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <BetaSignupDialogChunk {...props} />
    </Suspense>
  );
}

export function LazyFoundersPreorderDialog({ loaded, ...props }: FoundersProps) {
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <FoundersPreorderDialogChunk {...props} />
    </Suspense>
  );
}

export function LazyDiscOrderDialog({ loaded, ...props }: OrderProps) {
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <DiscOrderDialogChunk {...props} />
    </Suspense>
  );
}

export function LazyDiscReservationDialog({ loaded, ...props }: ReservationProps) {
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <DiscReservationDialogChunk {...props} />
    </Suspense>
  );
}
