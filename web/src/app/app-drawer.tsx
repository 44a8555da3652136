import type { User } from '@streamshop/contract/auth.ts';
import {
  Bell,
  Compass,
  ExternalLink,
  LayoutDashboard,
  LogOut,
  Radio,
  Settings,
  ShoppingBag,
  Sparkles,
  UserCheck,
} from 'lucide-react';
import { type ReactNode, useRef } from 'react';
import { NavLink } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { SheetContent, SheetDescription, SheetTitle } from '../components/ui/sheet.tsx';
import { LOGOUT_NAVIGATION_URL } from '../lib/api/auth.ts';
import { useSiteLinks } from '../lib/api/site-links.ts';
import { cn } from '../lib/cn.ts';
import { productSites } from './external-links.ts';
import { Logo } from './logo.tsx';
import { SearchForm } from './search-form.tsx';

const siteLinks = [
  { to: '/', label: 'Home' },
  { to: '/mission', label: 'Mission' },
  { to: '/social-impact', label: 'Social Impact' },
  { to: '/about', label: 'About' },
  { to: '/team', label: 'Team' },
  { to: '/blog', label: 'Blog' },
  { to: '/social', label: 'Social Commerce' },
] as const;

function DrawerLink({
  to,
  onNavigate,
  testId,
  showsActive = true,
  children,
}: {
  to: string;
  onNavigate: () => void;
  testId?: string;
  /** False for a link to a part of a page (its path alone would look current there). */
  showsActive?: boolean;
  children: ReactNode;
}) {
  return (
    <NavLink
      to={to}
      end
      onClick={onNavigate}
      data-testid={testId}
      className={({ isActive }) =>
        cn(
          'flex items-center gap-3 rounded-md px-3 py-2 text-sm transition-colors hover:bg-accent',
          isActive && showsActive ? 'bg-accent font-medium text-foreground' : 'text-muted-foreground',
        )
      }
    >
      {children}
    </NavLink>
  );
}

/** The left drawer opened by the hamburger (spec section 2, "Navigation bar and drawer"). */
export function AppDrawer({ user, onClose }: { user: User | null; onClose: () => void }) {
  const contentRef = useRef<HTMLDivElement>(null);
  // Only the sites whose address the operator has set (DROP_MODE_URL, STREAM_DISC_URL).
  const sites = productSites(useSiteLinks());
  return (
    <SheetContent
      ref={contentRef}
      side="left"
      data-testid="drawer"
      aria-describedby="drawer-description"
      // Focus the drawer itself, not its search field: on phones that would pop up the keyboard.
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        contentRef.current?.focus();
      }}
    >
      <SheetTitle>
        <Logo />
      </SheetTitle>
      <SheetDescription id="drawer-description" className="sr-only">
        Site navigation
      </SheetDescription>

      <SearchForm testId="drawer-search" onSearched={onClose} />

      <nav aria-label="Shop" className="grid gap-1">
        <DrawerLink to="/explore" onNavigate={onClose} testId="drawer-explore">
          <Compass className="size-4" aria-hidden="true" />
          Explore
        </DrawerLink>
        <DrawerLink to="/explore#live" onNavigate={onClose} testId="drawer-live" showsActive={false}>
          <span className="flex size-4 items-center justify-center" aria-hidden="true">
            <span className="size-2 rounded-full bg-live" />
          </span>
          Live now
        </DrawerLink>
      </nav>

      <nav aria-label="Account" className="grid gap-1 border-border border-t pt-4">
        {user ? (
          <>
            <DrawerLink to="/dashboard" onNavigate={onClose} testId="drawer-dashboard">
              <LayoutDashboard className="size-4" aria-hidden="true" />
              <span className="flex-1">Dashboard</span>
              <span className="min-w-0 truncate text-primary text-xs" data-testid="drawer-handle">
                @{user.handle}
              </span>
            </DrawerLink>
            <DrawerLink to="/golive" onNavigate={onClose} testId="drawer-golive">
              <Radio className="size-4 text-live" aria-hidden="true" />
              Go Live
            </DrawerLink>
            <DrawerLink to="/orders" onNavigate={onClose} testId="drawer-orders">
              <ShoppingBag className="size-4" aria-hidden="true" />
              Your orders
            </DrawerLink>
            <DrawerLink to="/following" onNavigate={onClose} testId="drawer-following">
              <UserCheck className="size-4" aria-hidden="true" />
              Following
            </DrawerLink>
            <DrawerLink to="/notifications" onNavigate={onClose} testId="drawer-notifications">
              <Bell className="size-4" aria-hidden="true" />
              Notifications
            </DrawerLink>
            <DrawerLink to="/settings" onNavigate={onClose} testId="drawer-settings">
              <Settings className="size-4" aria-hidden="true" />
              Settings
            </DrawerLink>
          </>
        ) : (
          <DrawerLink to="/" onNavigate={onClose} testId="drawer-join-beta">
            <Sparkles className="size-4 text-primary" aria-hidden="true" />
            Join Beta
          </DrawerLink>
        )}
      </nav>

      <nav aria-label="Site" className="grid gap-1 border-border border-t pt-4">
        {siteLinks.map((link) => (
          <DrawerLink key={link.to} to={link.to} onNavigate={onClose}>
            {link.label}
          </DrawerLink>
        ))}
      </nav>

      {sites.length > 0 ? (
        <div className="grid gap-2 border-border border-t pt-4" data-testid="drawer-products">
          <p className="px-3 text-muted-foreground text-xs uppercase tracking-wide">Our products</p>
          <ul className="flex flex-wrap gap-2 px-3">
            {sites.map((site) => (
              <li key={site.name}>
                <a
                  href={site.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-2 rounded-md border border-border px-2 py-1.5 text-sm hover:bg-accent"
                >
                  <span
                    aria-hidden="true"
                    className="flex size-6 items-center justify-center rounded bg-gradient-to-br from-purple-500 to-pink-500 font-bold text-[10px] text-white"
                  >
                    {site.mark}
                  </span>
                  {site.name}
                  <ExternalLink className="size-3 text-muted-foreground" aria-hidden="true" />
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {user ? (
        <div className="mt-auto border-border border-t pt-4">
          <Button
            variant="ghost"
            className="w-full justify-start text-muted-foreground"
            data-testid="sign-out"
            onClick={() => window.location.assign(LOGOUT_NAVIGATION_URL)}
          >
            <LogOut aria-hidden="true" />
            Sign Out
          </Button>
        </div>
      ) : null}
    </SheetContent>
  );
}
