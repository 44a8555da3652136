import { UNAUTHORIZED_REDIRECT_MS } from '@streamshop/contract/constants.ts';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { errorToast } from '../error-toast.ts';
import { useAuth } from './use-auth.ts';

export interface SignInNotice {
  title: string;
  description: string;
}

/**
 * For pages that need a signed-in user but are reachable by link (checkout, Pro upgrade): a
 * signed-out visitor gets a toast saying why and goes to / after 500 ms. Returns whether the
 * visitor is signed in. `notice` should be a constant so the effect does not rerun.
 */
export function useRedirectSignedOut(notice: SignInNotice): boolean {
  const { user } = useAuth();
  const navigate = useNavigate();
  const noticed = useRef(false);
  const signedIn = user !== null;

  useEffect(() => {
    if (signedIn) return;
    if (!noticed.current) {
      noticed.current = true;
      errorToast(notice.title, notice.description);
    }
    const timer = setTimeout(() => navigate('/', { replace: true }), UNAUTHORIZED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [signedIn, notice, navigate]);

  return signedIn;
}
