import {
  BadgeDollarSign,
  Boxes,
  Cpu,
  ExternalLink as ExternalLinkIcon,
  Gift,
  Layers,
  Mail,
  Radio,
  ShieldCheck,
  ShoppingBag,
  Store,
  Users,
  Wand2,
  Zap,
} from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { UpcomingShows } from '../../components/upcoming-shows.tsx';
import { useSiteLinks } from '../../lib/api/site-links.ts';
import { NEWSLETTER_TEXTS } from './components/beta-texts.ts';
import { DiscArt, PhoneTapArt } from './components/disc-art.tsx';
import { DISC_STEPS, Explainer } from './components/explainer.tsx';
import { FeatureVideo } from './components/feature-video.tsx';
import { LazyBetaSignupDialog, LazyFoundersPreorderDialog } from './components/lazy-dialogs.tsx';
import { LiveNow } from './components/live-now.tsx';
import { ProductMark } from './components/logos.tsx';
import {
  MUSIC_REACTIONS,
  ReactionLayer,
  ReactionPanel,
  useFloatingReactions,
  useReactionBursts,
} from './components/reactions.tsx';
import { ExternalLink, InfoCard, Section } from './components/section.tsx';
import { productSites } from './external-links.ts';
import { REACTION_LIFETIME_MS } from './timings.ts';
import { useLazyDialog } from './use-dialog.ts';
import './marketing.css';
import { usePageMeta } from './use-page-meta.ts';

const PROBLEMS = [
  {
    title: 'Streams don’t pay',
    text: 'An independent artist earns a fraction of a cent per play. A thousand devoted fans are worth more than a million passive listeners, but platforms treat them the same.',
  },
  {
    title: 'Physical media got stuck',
    text: 'Fans still want something to hold, yet most of them no longer own a CD player, a turntable or a disc drive.',
  },
  {
    title: 'Selling live is scattered',
    text: 'Creators stream in one app, sell in another and chat in a third, and lose buyers at every hop.',
  },
];

const CUSTOMERS = [
  {
    title: 'Independent artists',
    text: 'Release music with a collectible that plays anywhere and sells the next show.',
    Icon: Radio,
  },
  {
    title: 'Labels and distributors',
    text: 'Press runs from 1 to 1,000+ with tiered pricing and one storefront per roster.',
    Icon: Layers,
  },
  {
    title: 'Filmmakers',
    text: 'A shelf edition for films that streams in HD and carries the extras.',
    Icon: Boxes,
  },
  {
    title: 'Creators and brands',
    text: 'Go live, sell the product on screen and ship the collectible to the buyer.',
    Icon: Users,
  },
];

const FEATURES = [
  {
    title: 'Live shopping rooms',
    text: 'Stream, chat and sell in one room. Viewers buy without leaving the stream.',
    Icon: ShoppingBag,
  },
  {
    title: 'Storefront with replays',
    text: 'Every stream becomes a replay next to your products, so the show keeps selling.',
    Icon: Store,
  },
  {
    title: 'Tap-to-buy discs',
    text: 'Each Stream Disc links back to your storefront: one tap from shelf to checkout.',
    Icon: Zap,
  },
  {
    title: 'Secure checkout',
    text: 'Card payments handled by a certified provider; you never touch card numbers.',
    Icon: ShieldCheck,
  },
];

const REVENUE = [
  {
    title: 'Disc sales',
    text: 'Per-disc margin on every pressing, with bulk tiers from $5.00 down to $2.50 at cost for 100+.',
    Icon: Gift,
  },
  {
    title: 'Pro subscriptions',
    text: 'Creators upgrade to Pro for longer streams, restreaming and analytics at $9.99 a month.',
    Icon: BadgeDollarSign,
  },
  {
    title: 'Marketplace sales',
    text: 'A small fee on products sold through live rooms and storefronts.',
    Icon: Store,
  },
];

/** The signed-out home page: the StreamShop and Stream Disc story with its sign-up forms. */
export function LandingPage() {
  usePageMeta('/');
  // The operator's addresses (NEWSLETTER_FORM_URL and the product sites): unset ones have no link.
  const links = useSiteLinks();
  const newsletter = useLazyDialog();
  const founders = useLazyDialog();
  const { reactions, addReaction } = useFloatingReactions(REACTION_LIFETIME_MS);
  useReactionBursts(addReaction, MUSIC_REACTIONS);

  return (
    <div className="overflow-x-clip">
      <section className="relative border-border border-b bg-gradient-to-b from-purple-950/60 via-background to-background">
        <div className="mx-auto grid w-full max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 lg:grid-cols-[1.2fr_1fr] lg:py-24">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-live/40 bg-live/10 px-3 py-1 font-medium text-red-200 text-sm">
              <span className="size-2 rounded-full bg-live" aria-hidden="true" />
              Live-stream shopping, now in beta
            </p>
            <h1 className="mt-5 font-extrabold text-5xl tracking-tight sm:text-6xl">Shop live. Sell live.</h1>
            <p className="mt-5 max-w-xl text-lg text-muted-foreground sm:text-xl">
              StreamShop is the live-stream marketplace for independent artists, labels, creators and
              businesses, and home of the Stream Disc: a collectible you tap to stream or to buy.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Button size="lg" asChild>
                <Link to="/explore" data-testid="hero-shop-now">
                  <Store aria-hidden="true" />
                  Shop now
                </Link>
              </Button>
              <Button size="lg" onClick={() => newsletter.show()} data-testid="newsletter-button">
                <Mail aria-hidden="true" />
                Join the Beta
              </Button>
              <Button
                size="lg"
                variant="secondary"
                onClick={() => founders.show()}
                data-testid="founders-button"
              >
                <ShoppingBag aria-hidden="true" />
                Reserve the Founders Batch
              </Button>
            </div>
            <p className="mt-4 text-muted-foreground text-sm">
              {links.newsletterForm ? (
                <>
                  Prefer email updates only?{' '}
                  <ExternalLink
                    href={links.newsletterForm}
                    className="text-purple-300 underline-offset-4 hover:underline"
                    testId="newsletter-external"
                  >
                    Open the newsletter form
                  </ExternalLink>
                  .{' '}
                </>
              ) : null}
              Already selling?{' '}
              <Link to="/signin" className="text-purple-300 underline-offset-4 hover:underline">
                Log in
              </Link>
              .
            </p>
          </div>
          <div className="relative mx-auto w-full max-w-sm">
            <DiscArt spin title="Stream Disc" />
            <ReactionLayer reactions={reactions} lifetimeMs={REACTION_LIFETIME_MS} className="-top-24" />
          </div>
        </div>
      </section>

      <LiveNow />
      <UpcomingShows limit={3} tick={false} className="mx-auto mb-0 w-full max-w-6xl px-4 pt-10 sm:px-6" />

      <Section
        id="disc"
        eyebrow="The Stream Disc"
        title="A collectible that plays on any phone"
        intro="Stream Disc pairs a numbered physical disc with an NFC chip and a QR code. Tap it and the release opens: stream it, buy from the creator, or jump into their next live show. Send a reaction and watch it float up, like in a live room."
      >
        <div className="grid items-center gap-8 md:grid-cols-[1fr_auto]">
          <div className="grid gap-4 sm:grid-cols-3">
            <InfoCard title="Tap to stream">
              Music, film or art streams straight in the browser. No app, no drive.
            </InfoCard>
            <InfoCard title="Tap to buy">
              The same tap opens the creator’s storefront and their live shopping rooms.
            </InfoCard>
            <InfoCard title="Built to collect">
              Numbered editions that keep unlocking extras for whoever owns them.
            </InfoCard>
          </div>
          <ReactionPanel
            choices={MUSIC_REACTIONS}
            onReact={addReaction}
            orientation="horizontal"
            className="rounded-2xl md:max-w-[200px]"
          />
        </div>
      </Section>

      <Section
        id="problem"
        eyebrow="The problem"
        title="Fans want to support creators. The tools get in the way."
      >
        <div className="grid gap-4 md:grid-cols-3">
          {PROBLEMS.map((problem) => (
            <InfoCard key={problem.title} title={problem.title}>
              {problem.text}
            </InfoCard>
          ))}
        </div>
      </Section>

      <Section id="customers" eyebrow="Who it’s for" title="For people who sell what they make">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {CUSTOMERS.map(({ title, text, Icon }) => (
            <InfoCard key={title} title={title} icon={<Icon className="size-5" aria-hidden="true" />}>
              {text}
            </InfoCard>
          ))}
        </div>
      </Section>

      <Section
        id="product"
        eyebrow="The product"
        title="A marketplace where the stream is the storefront"
        intro="Sellers list products, go live in a stream room with chat, and keep a public storefront with replays of past streams. Buyers browse, filter, watch and pay by card, and the Stream Disc brings them back."
      >
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map(({ title, text, Icon }) => (
            <InfoCard key={title} title={title} icon={<Icon className="size-5" aria-hidden="true" />}>
              {text}
            </InfoCard>
          ))}
        </div>
      </Section>

      <Section
        id="revenue"
        eyebrow="Business model"
        title="Three ways the platform earns, all aligned with creators"
      >
        <div className="grid gap-4 md:grid-cols-3">
          {REVENUE.map(({ title, text, Icon }) => (
            <InfoCard key={title} title={title} icon={<Icon className="size-5" aria-hidden="true" />}>
              {text}
            </InfoCard>
          ))}
        </div>
      </Section>

      <Section
        id="technology"
        eyebrow="Technology"
        title="NFC, QR and a creator tool that packages the drop"
        intro="Every disc carries an NFC NTAG chip and a printed QR code pointing to a signed link, so copies can be verified and extras unlocked per owner. Drop Mode, our creator tool, bundles the release, its artwork, the extras and the disc run into one drop you launch live."
      >
        <div className="grid items-center gap-8 md:grid-cols-[auto_1fr]">
          <PhoneTapArt className="mx-auto size-48" />
          <div className="grid gap-4 sm:grid-cols-2">
            <InfoCard title="Secure tap links" icon={<Cpu className="size-5" aria-hidden="true" />}>
              Each chip holds a signed, per-disc link, so a copied URL cannot pose as a numbered disc.
            </InfoCard>
            <InfoCard title="Drop Mode creator tool" icon={<Wand2 className="size-5" aria-hidden="true" />}>
              Upload once, pick the edition size, schedule the live launch and print-ready artwork is
              generated for you.
            </InfoCard>
          </div>
        </div>
      </Section>

      <Section id="steps" eyebrow="How it works" title="From digital content to physical access">
        <Explainer steps={DISC_STEPS} />
      </Section>

      <Section id="video" eyebrow="Watch" title="The Stream Disc in eight seconds">
        <FeatureVideo title="The Stream Disc in eight seconds" className="mx-auto max-w-4xl" />
      </Section>

      <Section id="products" eyebrow="Our products" title="The StreamShop family">
        <ul className="grid gap-4 md:grid-cols-3">
          {productSites(links).map((site) => {
            const card = 'flex h-full gap-4 rounded-xl border border-border bg-card/70 p-5';
            const content = (
              <>
                <ProductMark name={site.name} className="shrink-0" />
                <span>
                  <span className="flex items-center gap-1.5 font-semibold">
                    {site.name}
                    {site.href ? <ExternalLinkIcon className="size-3.5" aria-hidden="true" /> : null}
                  </span>
                  <span className="mt-1 block text-muted-foreground text-sm">{site.blurb}</span>
                </span>
              </>
            );
            return (
              <li key={site.name}>
                {site.href ? (
                  <ExternalLink
                    href={site.href}
                    className={`${card} transition-colors hover:border-primary`}
                    testId="product-site-link"
                  >
                    {content}
                  </ExternalLink>
                ) : (
                  <div className={card} data-testid="product-site">
                    {content}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </Section>

      <section className="mx-auto w-full max-w-6xl px-4 pt-6 pb-20 sm:px-6">
        <div className="rounded-3xl border border-primary/40 bg-gradient-to-br from-purple-900/60 via-fuchsia-900/40 to-background p-8 text-center sm:p-12">
          <h2 className="font-bold text-3xl tracking-tight sm:text-4xl">Get in before the first pressing</h2>
          <p className="mx-auto mt-3 max-w-2xl text-muted-foreground">
            Join the beta to open a storefront and go live, or reserve discs from the limited Founders Batch.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Button size="lg" onClick={() => newsletter.show()}>
              <Mail aria-hidden="true" />
              Join the Beta
            </Button>
            <Button size="lg" variant="outline" asChild>
              <Link to="/stream-disc">Explore Stream Disc</Link>
            </Button>
          </div>
        </div>
      </section>

      <LazyBetaSignupDialog {...newsletter} source="landing" texts={NEWSLETTER_TEXTS} />
      <LazyFoundersPreorderDialog {...founders} />
    </div>
  );
}
