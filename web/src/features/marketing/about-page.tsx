import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function AboutPage() {
  usePageTitle('About StreamShop');
  return (
    <ComingSoon
      title="About StreamShop"
      subtitle="Live-stream shopping and the Stream Disc, built for creators."
      note="More about the company, our pillars and our partners is coming soon."
    />
  );
}
