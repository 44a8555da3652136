import { Compass, ExternalLink, Menu } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { Sheet, SheetTrigger } from '../components/ui/sheet.tsx';
import { useSiteLinks } from '../lib/api/site-links.ts';
import { cn } from '../lib/cn.ts';
import { useAuth } from '../lib/session/use-auth.ts';
import { AppDrawer } from './app-drawer.tsx';
import { Logo } from './logo.tsx';
import { SearchForm } from './search-form.tsx';

// Only signed-in users have a bell: its socket and lists load after the page, never on its first load.
const NotificationBell = lazy(async () => ({
  default: (await import('./notification-bell.tsx')).NotificationBell,
}));

const shopLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'inline-flex items-center gap-1.5 rounded-md px-2 py-2 font-medium text-sm hover:bg-accent hover:text-foreground sm:px-3',
    isActive ? 'text-foreground' : 'text-muted-foreground',
  );

export function NavBar() {
  const { user } = useAuth();
  const { dropMode } = useSiteLinks();
  const [drawerOpen, setDrawerOpen] = useState(false);

  return (
    <header className="sticky top-0 z-40 border-border border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-3 px-4 sm:px-6">
        <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
          <SheetTrigger asChild>
            <Button variant="ghost" size="icon" aria-label="Open menu" data-testid="drawer-toggle">
              <Menu className="size-5" aria-hidden="true" />
            </Button>
          </SheetTrigger>
          <AppDrawer user={user} onClose={() => setDrawerOpen(false)} />
        </Sheet>

        <Link to="/" aria-label="StreamShop home" data-testid="nav-logo" className="rounded-md">
          {/* On a phone the mark alone: the shop's links need the room. */}
          <Logo wordmarkClassName="hidden sm:inline" />
        </Link>

        <nav aria-label="Shop" className="flex items-center gap-1">
          <NavLink to="/explore" end className={shopLinkClass} data-testid="nav-explore">
            <Compass className="hidden size-4 sm:block" aria-hidden="true" />
            Explore
          </NavLink>
          {/* The marketplace's Live Now section lists the rooms live now. */}
          <Link to="/explore#live" className={shopLinkClass({ isActive: false })} data-testid="nav-live">
            <span className="size-2 rounded-full bg-live" aria-hidden="true" />
            Live
          </Link>
        </nav>

        <SearchForm testId="nav-search" className="mx-auto hidden w-full max-w-xl md:block" />

        <div className="ml-auto flex items-center gap-2 md:ml-0">
          {/* Only where the operator has set DROP_MODE_URL: never a dead link. */}
          {dropMode ? (
            <a
              href={dropMode}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="nav-drop-mode"
              className="hidden items-center gap-1.5 rounded-md px-3 py-2 font-medium text-sm text-muted-foreground hover:bg-accent hover:text-foreground sm:inline-flex"
            >
              Drop Mode
              <ExternalLink className="size-3.5" aria-hidden="true" />
            </a>
          ) : null}
          {user ? (
            <Suspense fallback={<span className="size-10" aria-hidden="true" />}>
              <NotificationBell key={user.id} userId={user.id} />
            </Suspense>
          ) : (
            <Button asChild size="sm" data-testid="nav-sign-in">
              <Link to="/signin">Log In</Link>
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
