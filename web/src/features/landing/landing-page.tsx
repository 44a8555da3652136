import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

/** Signed-out home page. */
export function LandingPage() {
  usePageTitle();
  return (
    <ComingSoon
      title="Shop live. Sell live."
      subtitle="StreamShop is the live-stream marketplace for independent artists, labels, creators and businesses."
      note="The full landing page, with the Stream Disc story and beta sign-up, is coming soon."
    >
      <div className="mt-8 flex flex-wrap gap-3">
        <Button asChild size="lg">
          <Link to="/signup">Create a free account</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/signin">Log In</Link>
        </Button>
      </div>
    </ComingSoon>
  );
}
