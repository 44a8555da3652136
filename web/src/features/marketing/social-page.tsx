import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function SocialPage() {
  usePageTitle('Social Commerce');
  return (
    <ComingSoon
      title="Social Commerce"
      subtitle="Live chat, reactions and shopping in one place."
      note="The social commerce preview and beta sign-up are coming soon."
    />
  );
}
