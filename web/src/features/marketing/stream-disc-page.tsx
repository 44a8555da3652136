import { Check, Disc3, Mail, Share2, ShoppingBag } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { DiscArt } from './components/disc-art.tsx';
import { Explainer } from './components/explainer.tsx';
import { FeatureVideo } from './components/feature-video.tsx';
import {
  LazyBetaSignupDialog,
  LazyDiscOrderDialog,
  LazyDiscReservationDialog,
} from './components/lazy-dialogs.tsx';
import {
  type ReactionChoice,
  ReactionLayer,
  ReactionPanel,
  useEditionReactions,
  useFloatingReactions,
  useReactionBursts,
} from './components/reactions.tsx';
import { InfoCard, Section } from './components/section.tsx';
import { priceTierRows } from './price-tiers.ts';
import { shareLink } from './share.ts';
import {
  DISC_TOAST_MS,
  EDITION_REACTION_LIFETIME_MS,
  PREORDER_SUCCESS_TOAST_MS,
  REACTION_LIFETIME_MS,
} from './timings.ts';
import { useLazyDialog } from './use-dialog.ts';
import './marketing.css';
import { absoluteUrl, PRERENDER_ORIGIN, type PublicPath } from '@streamshop/contract/seo.ts';
import { STREAM_DISC_COPY, type StreamDiscVariant } from './stream-disc-copy.ts';
import { usePageMeta } from './use-page-meta.ts';

const VARIANT_PATH = {
  disc: '/stream-disc',
  music: '/stream-disc/music',
  film: '/stream-disc/film',
} as const satisfies Record<StreamDiscVariant, PublicPath>;

/**
 * schema.org Product for the music and film editions: price 5.00, pre-order availability. The
 * offer URL is the page's canonical URL: prerendered (no window) it is written on
 * PRERENDER_ORIGIN, which the server replaces with PUBLIC_URL.
 */
function productJsonLd(variant: 'music' | 'film'): string {
  const { edition, subtitle } = STREAM_DISC_COPY[variant];
  const origin = typeof window === 'undefined' ? PRERENDER_ORIGIN : window.location.origin;
  const url = absoluteUrl(origin, VARIANT_PATH[variant]);
  const data = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: `Stream Disc ${edition}`,
    description: subtitle,
    brand: { '@type': 'Brand', name: 'Stream Disc' },
    category: variant === 'music' ? 'Music' : 'Movies',
    offers: {
      '@type': 'Offer',
      price: '5.00',
      priceCurrency: 'USD',
      availability: 'https://schema.org/PreOrder',
      url,
    },
  };
  // Escaped so the JSON can never close the script element.
  return JSON.stringify(data).replaceAll('<', '\\u003c');
}

/** ?preorder=success|cancelled (the return from the $1 checkout): a toast, then the parameter goes. */
function usePreorderReturnToast() {
  const [searchParams, setSearchParams] = useSearchParams();
  const outcome = searchParams.get('preorder');
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!outcome || shown.current === outcome) return;
    shown.current = outcome;
    if (outcome === 'success') {
      toast({
        title: 'Pre-Order Successful!',
        description:
          'Your $1 reservation is confirmed. Your full invoice will arrive by email in 3-5 business days.',
        duration: PREORDER_SUCCESS_TOAST_MS,
      });
    } else if (outcome === 'cancelled') {
      toast({
        title: 'Pre-Order Cancelled',
        description: 'No charge was made. You can reserve your disc again any time.',
        duration: DISC_TOAST_MS,
      });
    }
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('preorder');
        return next;
      },
      { replace: true },
    );
  }, [outcome, setSearchParams]);
}

function ShareButton({ title }: { title: string }) {
  const [sharing, setSharing] = useState(false);
  return (
    <Button
      variant="outline"
      size="lg"
      disabled={sharing}
      onClick={async () => {
        setSharing(true);
        try {
          await shareLink({ title, url: window.location.href });
        } finally {
          setSharing(false);
        }
      }}
      data-testid="share-button"
    >
      <Share2 aria-hidden="true" />
      {sharing ? 'Sharing...' : 'Share'}
    </Button>
  );
}

/** /stream-disc and its music and film variants. */
export function StreamDiscPage({ variant }: { variant: StreamDiscVariant }) {
  const page = STREAM_DISC_COPY[variant];
  usePageMeta(VARIANT_PATH[variant]);
  usePreorderReturnToast();
  const order = useLazyDialog();
  const reservation = useLazyDialog();
  const beta = useLazyDialog();
  const isEdition = variant !== 'disc';
  const lifetime = isEdition ? EDITION_REACTION_LIFETIME_MS : REACTION_LIFETIME_MS;
  const { reactions, addReaction } = useFloatingReactions(lifetime);

  // /stream-disc takes the $1 reservation; the music and film editions take the full order form.
  const openPreorder = isEdition ? order.show : reservation.show;

  return (
    <div className="overflow-x-clip">
      {isEdition ? (
        <EditionReactions
          addReaction={addReaction}
          choices={page.reactions}
          withFirst={variant === 'music'}
        />
      ) : (
        <BurstReactions addReaction={addReaction} choices={page.reactions} />
      )}
      {isEdition ? (
        // The served page names PUBLIC_URL, the browser its own origin: the server's text stays.
        <script type="application/ld+json" suppressHydrationWarning>
          {productJsonLd(variant)}
        </script>
      ) : null}

      <section className="relative border-border border-b bg-gradient-to-b from-purple-950/50 via-background to-background">
        <div className="mx-auto grid w-full max-w-6xl items-center gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[1.1fr_1fr] lg:py-20">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-primary/40 bg-primary/10 px-3 py-1 font-medium text-purple-200 text-sm">
              <Disc3 className="size-4" aria-hidden="true" />
              {isEdition ? `Stream Disc ${page.edition}` : 'Founders Batch now reserving'}
            </p>
            <h1 className="mt-5 font-extrabold text-4xl tracking-tight sm:text-5xl lg:text-6xl">
              {page.title}
            </h1>
            <p className="mt-5 max-w-xl text-lg text-muted-foreground">{page.subtitle}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Button size="lg" onClick={openPreorder} data-testid="preorder-button">
                <ShoppingBag aria-hidden="true" />
                Pre-Order
              </Button>
              {isEdition ? <ShareButton title={page.title} /> : null}
              <Button
                size="lg"
                variant="secondary"
                onClick={() => beta.show()}
                data-testid="join-beta-button"
              >
                <Mail aria-hidden="true" />
                Join Beta
              </Button>
            </div>
            <p className="mt-4 text-muted-foreground text-sm">From $5.00 a disc, $2.50 at 100 or more.</p>
          </div>
          <div className="relative mx-auto flex w-full max-w-md items-center gap-4">
            <div className="relative flex-1">
              <DiscArt edition={variant} spin title={`Stream Disc ${page.edition}`} />
              <ReactionLayer reactions={reactions} lifetimeMs={lifetime} className="-top-24" />
            </div>
            <ReactionPanel
              choices={page.reactions}
              onReact={addReaction}
              className="hidden max-h-[420px] overflow-y-auto sm:flex"
            />
          </div>
          <ReactionPanel
            choices={page.reactions}
            onReact={addReaction}
            orientation="horizontal"
            className="rounded-2xl sm:hidden"
          />
        </div>
      </section>

      <Section
        id="video"
        eyebrow="Watch"
        title="See a tap turn into a stream"
        intro="From shelf to playback in one tap: the disc, the phone and the storefront working together."
      >
        <FeatureVideo title={page.videoTitle} className="mx-auto max-w-4xl" />
      </Section>

      <Section id="how" eyebrow="How it works" title="Four steps from upload to collectible">
        <Explainer steps={page.steps} />
      </Section>

      <Section
        id="why"
        eyebrow={isEdition ? page.edition : 'Why Stream Disc'}
        title="Built for creators who sell direct"
      >
        <div className="grid gap-4 md:grid-cols-3">
          {page.benefits.map((benefit) => (
            <InfoCard
              key={benefit.title}
              icon={<Check className="size-5" aria-hidden="true" />}
              title={benefit.title}
            >
              {benefit.text}
            </InfoCard>
          ))}
        </div>
      </Section>

      <Section id="pricing" eyebrow="Pricing" title="The more you press, the less each disc costs">
        <div className="grid gap-3 sm:grid-cols-4">
          {priceTierRows.map((row) => (
            <div key={row.range} className="rounded-xl border border-border bg-card/70 p-5 text-center">
              <p className="text-muted-foreground text-sm">{row.range} discs</p>
              <p className="mt-1 font-bold text-3xl">{row.price}</p>
              <p className="text-muted-foreground text-xs">
                {row.maxQuantity === null ? 'cost price' : 'per disc'}
              </p>
            </div>
          ))}
        </div>
      </Section>

      {variant === 'disc' ? (
        <Section id="editions" eyebrow="Editions" title="One disc, made for your medium">
          <div className="grid gap-4 md:grid-cols-2">
            <Link
              to="/stream-disc/music"
              className="rounded-xl border border-border bg-card/70 p-6 transition-colors hover:border-primary"
            >
              <p className="font-semibold text-xl">Music Edition →</p>
              <p className="mt-2 text-muted-foreground text-sm">A modern alternative to CDs and vinyl.</p>
            </Link>
            <Link
              to="/stream-disc/film"
              className="rounded-xl border border-border bg-card/70 p-6 transition-colors hover:border-primary"
            >
              <p className="font-semibold text-xl">Film Edition →</p>
              <p className="mt-2 text-muted-foreground text-sm">A modern alternative to DVDs and Blu-ray.</p>
            </Link>
          </div>
        </Section>
      ) : null}

      <section className="mx-auto w-full max-w-6xl px-4 pt-6 pb-20 sm:px-6">
        <div className="rounded-3xl border border-primary/40 bg-gradient-to-br from-purple-900/60 via-fuchsia-900/40 to-background p-8 text-center sm:p-12">
          <h2 className="font-bold text-3xl tracking-tight sm:text-4xl">Be part of the first pressing</h2>
          <p className="mx-auto mt-3 max-w-2xl text-muted-foreground">
            The Founders Batch is limited. Order now and we confirm artwork, quantity and shipping with you
            before anything is pressed.
          </p>
          <Button size="lg" className="mt-8" onClick={openPreorder} data-testid="preorder-button-closing">
            <ShoppingBag aria-hidden="true" />
            Pre-Order
          </Button>
        </div>
      </section>

      <LazyDiscReservationDialog {...reservation} />
      <LazyDiscOrderDialog {...order} edition={isEdition ? `Stream Disc ${page.edition}` : undefined} />
      <LazyBetaSignupDialog {...beta} source={variant === 'disc' ? 'stream-disc' : variant} />
    </div>
  );
}

function BurstReactions({
  addReaction,
  choices,
}: {
  addReaction: (emoji: string) => void;
  choices: ReactionChoice[];
}) {
  useReactionBursts(addReaction, choices);
  return null;
}

function EditionReactions({
  addReaction,
  choices,
  withFirst,
}: {
  addReaction: (emoji: string) => void;
  choices: ReactionChoice[];
  withFirst: boolean;
}) {
  useEditionReactions(addReaction, choices, withFirst);
  return null;
}

export const StreamDiscLandingPage = () => <StreamDiscPage variant="disc" />;
export const StreamDiscMusicPage = () => <StreamDiscPage variant="music" />;
export const StreamDiscFilmPage = () => <StreamDiscPage variant="film" />;
