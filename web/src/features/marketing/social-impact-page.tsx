import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function SocialImpactPage() {
  usePageTitle('Social Impact');
  return (
    <ComingSoon
      title="Social Impact"
      subtitle="How live commerce can put more of every sale in creators’ hands."
      note="Our social impact report is coming soon."
    />
  );
}
