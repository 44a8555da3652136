import { Link } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { usePageTitle } from '../lib/page-title.ts';

export function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <section className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-4 py-20 text-center">
      <p className="font-bold text-6xl text-primary">404</p>
      <h1 className="font-bold text-3xl tracking-tight">Page Not Found</h1>
      <p className="text-muted-foreground">The page you're looking for doesn't exist or has moved.</p>
      <Button asChild>
        <Link to="/" data-testid="not-found-home">
          Go Home
        </Link>
      </Button>
    </section>
  );
}
