import { useParams, useSearchParams } from 'react-router';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

/** The browse view behind /, /explore, /search?q= and /c/{slug}. */
export function MarketplacePage() {
  const [searchParams] = useSearchParams();
  const { slug } = useParams();
  const term = searchParams.get('q')?.trim() ?? '';
  const title = term ? 'Search Results' : 'Marketplace';
  usePageTitle(title);

  let subtitle = 'Discover thousands of products from verified sellers';
  if (term) subtitle = `Results for “${term}”`;
  else if (slug) subtitle = `Category: ${slug}`;

  return (
    <ComingSoon
      title={title}
      subtitle={subtitle}
      note="Live streams, filters and the product grid are on their way to this page."
    />
  );
}
