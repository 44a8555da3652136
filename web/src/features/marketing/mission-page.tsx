import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function MissionPage() {
  usePageTitle('Our Mission');
  return (
    <ComingSoon
      title="Our Mission"
      subtitle="Giving independent artists, labels, creators and businesses a live stage to sell from."
      note="The full mission story is coming soon."
    />
  );
}
