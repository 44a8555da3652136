import { useParams } from 'react-router';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function StorefrontPage() {
  const { handle } = useParams();
  usePageTitle(handle ? `@${handle}` : 'Storefront');
  if (!handle) return <ComingSoon title="Storefront" note="Invalid storefront URL" />;
  return (
    <ComingSoon
      title={`@${handle}`}
      subtitle="Storefront"
      note="Products and stream recordings from this seller are coming soon."
    />
  );
}
