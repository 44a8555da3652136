import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function CheckoutPage() {
  const { productId } = useParams();
  usePageTitle('Checkout');
  return (
    <ComingSoon
      title="Checkout"
      note={productId ? 'Secure card checkout is coming soon.' : 'Invalid checkout URL'}
    >
      <Button asChild variant="outline" className="mt-6">
        <Link to="/explore">Back to Marketplace</Link>
      </Button>
    </ComingSoon>
  );
}
