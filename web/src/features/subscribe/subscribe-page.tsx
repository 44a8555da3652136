import { PLAN_STREAM_SECONDS, PRO_PRICE_CENTS } from '@streamshop/contract/constants.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function SubscribePage() {
  usePageTitle('Upgrade to Pro');
  return (
    <ComingSoon
      title="Upgrade to Pro"
      subtitle={`Streams up to ${PLAN_STREAM_SECONDS.pro / 60} minutes, streaming to external platforms, advanced analytics and HD quality for ${formatCents(PRO_PRICE_CENTS)} per month.`}
      note="Pro subscriptions are coming soon."
    >
      <Button asChild variant="outline" className="mt-6">
        <Link to="/dashboard">Back to Dashboard</Link>
      </Button>
    </ComingSoon>
  );
}
