import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button } from '../components/ui/button.tsx';

/** Shown when a route fails to render or its code cannot be loaded. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="font-bold text-3xl tracking-tight">Something went wrong</h1>
      <p className="max-w-md text-muted-foreground">
        StreamShop hit an unexpected problem. Reloading the page usually helps.
      </p>
      <p className="max-w-md break-words font-mono text-muted-foreground text-xs">{detail}</p>
      <div className="flex gap-3">
        <Button onClick={() => window.location.reload()}>Reload</Button>
        <Button variant="outline" asChild>
          <Link to="/">Go Home</Link>
        </Button>
      </div>
    </div>
  );
}
