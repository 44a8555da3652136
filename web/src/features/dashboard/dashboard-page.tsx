import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../auth/use-auth.ts';

/** Seller dashboard; the route only renders it for signed-in users. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const { user } = useAuth();
  return (
    <ComingSoon
      title="Seller Dashboard"
      subtitle={user ? `Welcome back, @${user.handle}` : undefined}
      note="Your stats, products, streams and orders will appear here soon."
    />
  );
}
