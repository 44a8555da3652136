import { Eye, Heart, Mail, MessageCircle, ShoppingBag, Sparkles } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { DiscArt } from './components/disc-art.tsx';
import { LazyBetaSignupDialog } from './components/lazy-dialogs.tsx';
import {
  MUSIC_REACTIONS,
  ReactionLayer,
  SOCIAL_EMOJI_REACTIONS,
  useFloatingReactions,
  useReactionBursts,
} from './components/reactions.tsx';
import { InfoCard, Section } from './components/section.tsx';
import { SimulatedChat } from './components/simulated-chat.tsx';
import { REACTION_LIFETIME_MS } from './timings.ts';
import { useLazyDialog } from './use-dialog.ts';
import './marketing.css';
import { usePageMeta } from './use-page-meta.ts';

/** /social: what a live shopping room feels like, with a demo chat and reactions. */
export function SocialPage() {
  usePageMeta('/social');
  const beta = useLazyDialog();
  const { reactions, addReaction } = useFloatingReactions(REACTION_LIFETIME_MS);
  useReactionBursts(addReaction, MUSIC_REACTIONS);

  return (
    <div className="overflow-x-clip">
      <section className="border-border border-b bg-gradient-to-b from-fuchsia-950/50 via-background to-background">
        <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[1fr_1.1fr] lg:py-20">
          <div className="self-center">
            <p className="inline-flex items-center gap-2 rounded-full border border-primary/40 bg-primary/10 px-3 py-1 font-medium text-purple-200 text-sm">
              <Sparkles className="size-4" aria-hidden="true" />
              Shopping is better together
            </p>
            <h1 className="mt-5 font-extrabold text-4xl tracking-tight sm:text-6xl">Social Commerce</h1>
            <p className="mt-5 max-w-xl text-lg text-muted-foreground">
              A StreamShop room is a store, a stage and a group chat at once. Viewers ask questions, react and
              buy while the seller shows the product live, and the replay keeps selling afterwards.
            </p>
            <Button size="lg" className="mt-8" onClick={() => beta.show()} data-testid="join-beta-button">
              <Mail aria-hidden="true" />
              Join Beta
            </Button>
          </div>

          <div className="grid gap-4 sm:grid-cols-[1.3fr_1fr]">
            <div className="relative flex min-h-[420px] flex-col overflow-hidden rounded-2xl border border-border bg-gradient-to-b from-purple-900/50 to-black">
              <div className="flex items-center justify-between p-4">
                <span className="inline-flex items-center gap-1.5 rounded-md bg-live px-2 py-0.5 font-bold text-white text-xs">
                  LIVE
                </span>
                <span className="inline-flex items-center gap-1 text-sm text-white/80">
                  <Eye className="size-4" aria-hidden="true" />
                  1,284
                </span>
              </div>
              <div className="mx-auto w-3/5 flex-1 content-center">
                <DiscArt spin title="Stream Disc shown live" />
              </div>
              <div className="m-4 flex items-center justify-between rounded-xl bg-black/60 p-3 backdrop-blur">
                <div>
                  <p className="font-semibold text-sm">Stream Disc · Founders Batch</p>
                  <p className="text-muted-foreground text-xs">Numbered, NFC + QR</p>
                </div>
                <span className="inline-flex items-center gap-1 rounded-md bg-primary px-3 py-1.5 font-semibold text-sm">
                  <ShoppingBag className="size-4" aria-hidden="true" />
                  $5.00
                </span>
              </div>
              <ReactionLayer reactions={reactions} lifetimeMs={REACTION_LIFETIME_MS} />
            </div>
            <div className="flex h-[420px] flex-col gap-3">
              <div className="min-h-0 flex-1">
                <SimulatedChat />
              </div>
              <fieldset className="flex flex-wrap items-center justify-center gap-2 rounded-xl border border-border bg-card/80 p-2">
                <legend className="sr-only">Send a reaction</legend>
                <button
                  type="button"
                  aria-label="Send a heart"
                  onClick={() => addReaction('❤️')}
                  className="flex size-10 cursor-pointer items-center justify-center rounded-full bg-pink-600 text-white transition-transform hover:scale-110 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring active:scale-95"
                  data-testid="heart-button"
                >
                  <Heart className="size-5 fill-current" aria-hidden="true" />
                </button>
                {SOCIAL_EMOJI_REACTIONS.map((choice) => (
                  <button
                    key={choice.emoji}
                    type="button"
                    aria-label={`Send ${choice.label}`}
                    onClick={() => addReaction(choice.emoji)}
                    className="flex size-10 cursor-pointer items-center justify-center rounded-full bg-muted text-lg transition-transform hover:scale-110 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring active:scale-95"
                  >
                    <span aria-hidden="true">{choice.emoji}</span>
                  </button>
                ))}
              </fieldset>
            </div>
          </div>
        </div>
      </section>

      <Section
        id="why-social"
        eyebrow="Why it works"
        title="The energy of a live show, the convenience of a shop"
      >
        <div className="grid gap-4 md:grid-cols-3">
          <InfoCard title="Ask and see" icon={<MessageCircle className="size-5" aria-hidden="true" />}>
            Buyers ask about size, sound or sleeve art and see the answer on camera, which is why live viewers
            buy with more confidence than shoppers reading a product page.
          </InfoCard>
          <InfoCard title="Reactions are signals" icon={<Heart className="size-5" aria-hidden="true" />}>
            Hearts and emoji tell the seller what lands. A burst of fire on a colourway is a cue to show it
            again.
          </InfoCard>
          <InfoCard title="Replays keep selling" icon={<ShoppingBag className="size-5" aria-hidden="true" />}>
            Every room is recorded and pinned to the storefront next to the products it featured.
          </InfoCard>
        </div>
      </Section>

      <LazyBetaSignupDialog {...beta} source="social" />
    </div>
  );
}
