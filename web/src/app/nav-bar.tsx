import { ExternalLink, Menu } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { Sheet, SheetTrigger } from '../components/ui/sheet.tsx';
import { useAuth } from '../lib/session/use-auth.ts';
import { AppDrawer } from './app-drawer.tsx';
import { DROP_MODE_URL } from './external-links.ts';
import { Logo } from './logo.tsx';
import { SearchForm } from './search-form.tsx';

export function NavBar() {
  const { user } = useAuth();
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
          <Logo />
        </Link>

        <SearchForm testId="nav-search" className="mx-auto hidden w-full max-w-xl md:block" />

        <div className="ml-auto flex items-center gap-2 md:ml-0">
          <a
            href={DROP_MODE_URL}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="nav-drop-mode"
            className="hidden items-center gap-1.5 rounded-md px-3 py-2 font-medium text-sm text-muted-foreground hover:bg-accent hover:text-foreground sm:inline-flex"
          >
            Drop Mode
            <ExternalLink className="size-3.5" aria-hidden="true" />
          </a>
          {user ? null : (
            <Button asChild size="sm" data-testid="nav-sign-in">
              <Link to="/signin">Log In</Link>
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
