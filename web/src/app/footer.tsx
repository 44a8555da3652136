import { Link } from 'react-router';
import { Logo } from './logo.tsx';

/** The footer's pages (spec section 2); the words of the last four: features/site/content.ts. */
const footerLinks = [
  { to: '/blog', label: 'Blog' },
  { to: '/help', label: 'Help Center' },
  { to: '/contact', label: 'Contact Us' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
] as const;

export function Footer() {
  return (
    <footer className="border-border border-t bg-card/40" data-testid="footer">
      <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8 sm:px-6 md:flex-row md:items-center md:justify-between">
        <Logo className="text-base" />
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-muted-foreground text-sm">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="hover:text-foreground hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      {/* A prerendered page carries the year of its build: the browser's own may differ. */}
      <p className="mx-auto w-full max-w-7xl px-4 pb-8 text-muted-foreground text-xs sm:px-6">
        © <span suppressHydrationWarning>{new Date().getFullYear()}</span> StreamShop. All rights reserved.
      </p>
    </footer>
  );
}
