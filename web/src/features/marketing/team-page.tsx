import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function TeamPage() {
  usePageTitle('Our Team');
  return (
    <ComingSoon
      title="Our Team"
      subtitle="The people building StreamShop."
      note="Team profiles are coming soon."
    />
  );
}
