import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

/** Go Live setup; the route only renders it for signed-in users. */
export function GoLivePage() {
  usePageTitle('Go Live');
  return (
    <ComingSoon
      title="Go Live"
      subtitle="Set up a live shopping stream."
      note="The stream setup form is coming soon."
    />
  );
}
