import { roomNameFromPath } from '@streamshop/contract/room-urls.ts';
import { isPrerenderedPath, publicPathOf } from '@streamshop/contract/seo.ts';
import { createContext, type ReactNode, useContext } from 'react';
import { useLocation } from 'react-router';

const AssumeSignedOut = createContext(false);

/** True while rendering a page that was (or is being) prerendered: see `useShowsAuthSpinner`. */
export function AssumeSignedOutProvider({ value, children }: { value: boolean; children: ReactNode }) {
  return <AssumeSignedOut.Provider value={value}>{children}</AssumeSignedOut.Provider>;
}

/**
 * Whether the app shell shows the full-screen spinner while the first auth check runs (spec
 * section 2). Not on a prerendered marketing page that is being hydrated (or prerendered): that
 * page is the signed-out view, the same for everyone, so it stays and the auth-dependent parts
 * (the Log In button, '/' for signed-in users) update when the check answers. Any other route
 * still waits for the check behind the spinner.
 */
export function useShowsAuthSpinner(isLoading: boolean): boolean {
  const assumeSignedOut = useContext(AssumeSignedOut);
  const { pathname } = useLocation();
  if (!isLoading) return false;
  if (!assumeSignedOut) return true;
  const path = publicPathOf(pathname);
  return !((path !== undefined && isPrerenderedPath(path)) || roomNameFromPath(pathname) !== null);
}
