import { useEffect, useRef } from 'react';
import { Navigate, Outlet } from 'react-router';
import { errorToast } from '../lib/error-toast.ts';
import { useAuth } from '../lib/session/use-auth.ts';

/**
 * Renders the nested route for signed-in users; sends everyone else to /, optionally with a
 * toast that says why (Go Live: 'Authentication Required').
 */
export function RequireSignedIn({ notice }: { notice?: { title: string; description: string } }) {
  const { user } = useAuth();
  const noticed = useRef(false);

  useEffect(() => {
    if (user || !notice || noticed.current) return;
    noticed.current = true;
    errorToast(notice.title, notice.description);
  }, [user, notice]);

  if (!user) return <Navigate to="/" replace />;
  return <Outlet />;
}
