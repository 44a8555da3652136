import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function BlogPage() {
  usePageTitle('Blog');
  return (
    <ComingSoon
      title="Blog"
      subtitle="News and stories from StreamShop."
      note="Our first article is coming soon."
    />
  );
}
