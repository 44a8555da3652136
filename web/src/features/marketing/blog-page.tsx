import { ExternalLink as ExternalLinkIcon } from 'lucide-react';
import { Link } from 'react-router';
import { useSiteLinks } from '../../lib/api/site-links.ts';
import { AnimatedDiscLogo } from './components/logos.tsx';
import { ExternalLink } from './components/section.tsx';
import { usePageMeta } from './use-page-meta.ts';

export function BlogPage() {
  usePageMeta('/blog');
  // PRESS_KIT_URL: the article's external link, shown only when the operator has set it.
  const { pressKit } = useSiteLinks();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-14 sm:px-6">
      <h1 className="font-extrabold text-4xl tracking-tight sm:text-5xl">Blog</h1>
      <p className="mt-3 text-lg text-muted-foreground">News and stories from StreamShop.</p>

      <article
        className="mt-10 rounded-2xl border border-border bg-card/70 p-6 sm:p-10"
        data-testid="blog-article"
      >
        <header className="flex flex-col gap-6 sm:flex-row sm:items-center">
          <AnimatedDiscLogo className="shrink-0" />
          <div>
            <p className="text-muted-foreground text-sm">
              <time dateTime="2025-06-02">June 2, 2025</time> · 4 min read
            </p>
            <h2 className="mt-1 font-bold text-2xl tracking-tight sm:text-3xl">
              Why we’re pressing a disc in the streaming age
            </h2>
          </div>
        </header>
        <div className="mt-8 grid gap-5 text-foreground/90 leading-relaxed">
          <p>
            Every artist we talk to says the same thing: the merch table is where the money is. A fan who just
            heard the record live wants to take something home, and they want it from the artist, right now.
            Streaming gave music endless reach but took that moment away.
          </p>
          <p>
            StreamShop brings the moment back online. Sellers go live in a room where the product sits next to
            the chat and checkout takes a few seconds. The Stream Disc is the other half: a numbered disc with
            an NFC chip and a QR code. Tap it with any phone and the album, film or artwork streams in the
            browser, with the creator’s storefront one more tap away.
          </p>
          <p>
            We kept the price simple. A single disc is $5.00, ten or more are $3.50, fifty or more $2.75, and
            from a hundred discs we charge cost price, $2.50, because a school band or a film club should be
            able to press a run too.
          </p>
          <p>
            The Founders Batch is the first pressing. Reserve yours on the{' '}
            <Link to="/stream-disc" className="text-purple-300 underline-offset-4 hover:underline">
              Stream Disc page
            </Link>
            , and tell us what you would put on it.
          </p>
        </div>
        {pressKit ? (
          <footer className="mt-8 border-border border-t pt-6">
            <ExternalLink
              href={pressKit}
              className="inline-flex items-center gap-1.5 font-medium text-purple-300 underline-offset-4 hover:underline"
              testId="blog-external-link"
            >
              Read the Founders Batch press kit
              <ExternalLinkIcon className="size-4" aria-hidden="true" />
            </ExternalLink>
          </footer>
        ) : null}
      </article>
    </div>
  );
}
