import { Disc3, Film, Music, Nfc, Package, Sparkles } from 'lucide-react';
import type { ComponentType } from 'react';
import { cn } from '../../../lib/cn.ts';
import { usePrefersReducedMotion, useStepCycle } from '../hooks.ts';
import { EXPLAINER_STEP_MS } from '../timings.ts';

export interface ExplainerStep {
  title: string;
  text: string;
  Icon: ComponentType<{ className?: string }>;
}

/** The landing page's four steps (spec section 2). */
export const DISC_STEPS: ExplainerStep[] = [
  {
    title: 'Digital Content',
    text: 'An album, a film, a print series or a live session is uploaded once to the creator’s StreamShop storefront.',
    Icon: Sparkles,
  },
  {
    title: 'Stream Disc',
    text: 'The release is bound to a numbered disc with an NFC chip and a printed QR code, so every copy is unique.',
    Icon: Disc3,
  },
  {
    title: 'NFC Transfer',
    text: 'A tap of any phone opens the release: stream it, buy the merch, or join the creator’s next live show.',
    Icon: Nfc,
  },
  {
    title: 'Physical Access',
    text: 'The disc stays on the shelf as a collectible and keeps unlocking extras, drops and tickets for its owner.',
    Icon: Package,
  },
];

export const MUSIC_STEPS: ExplainerStep[] = [
  {
    title: 'Your Album',
    text: 'Masters, liner notes, lyrics and bonus tracks go up once, in full quality.',
    Icon: Music,
  },
  {
    title: 'Press the Disc',
    text: 'Each Music Edition disc is numbered and linked to the album, like a first pressing.',
    Icon: Disc3,
  },
  {
    title: 'Tap to Play',
    text: 'Fans tap with a phone to stream the record: no player, no app store, no download codes.',
    Icon: Nfc,
  },
  {
    title: 'Keep Collecting',
    text: 'The disc unlocks listening parties, signed merch and the next single as it drops.',
    Icon: Package,
  },
];

export const FILM_STEPS: ExplainerStep[] = [
  {
    title: 'Your Film',
    text: 'The feature, the director’s cut, commentary and behind-the-scenes reels live in one place.',
    Icon: Film,
  },
  {
    title: 'Press the Disc',
    text: 'Each Film Edition disc is numbered and bound to the release, ready for the shelf.',
    Icon: Disc3,
  },
  {
    title: 'Tap to Watch',
    text: 'Viewers tap with a phone to stream in HD or cast to the big screen, no disc drive needed.',
    Icon: Nfc,
  },
  {
    title: 'Own the Extras',
    text: 'Premieres, Q&As with the cast and festival screenings unlock for disc owners.',
    Icon: Package,
  },
];

/**
 * Four steps that advance every 2 s; a click jumps to a step. Under reduced motion they stay
 * where the visitor puts them (all four are on screen anyway).
 */
export function Explainer({ steps, className }: { steps: ExplainerStep[]; className?: string }) {
  const reducedMotion = usePrefersReducedMotion();
  const [active, setActive] = useStepCycle(steps.length, EXPLAINER_STEP_MS, !reducedMotion);
  return (
    <ol className={cn('grid gap-3 sm:grid-cols-2 lg:grid-cols-4', className)} data-testid="explainer">
      {steps.map((step, index) => {
        const isActive = index === active;
        return (
          <li key={step.title}>
            <button
              type="button"
              onClick={() => setActive(index)}
              aria-current={isActive ? 'step' : undefined}
              data-active={isActive}
              className={cn(
                'flex h-full w-full cursor-pointer flex-col gap-3 rounded-xl border p-5 text-left transition-all duration-500 motion-reduce:transition-none',
                isActive
                  ? 'border-primary bg-primary/15 shadow-lg shadow-primary/20'
                  : 'border-border bg-card/60 opacity-75 hover:opacity-100',
              )}
            >
              <span className="flex items-center gap-3">
                <span
                  className={cn(
                    'flex size-10 items-center justify-center rounded-full',
                    isActive ? 'bg-primary text-primary-foreground' : 'bg-muted text-muted-foreground',
                  )}
                >
                  <step.Icon className="size-5" aria-hidden="true" />
                </span>
                <span className="text-muted-foreground text-xs">Step {index + 1}</span>
              </span>
              <span className="font-semibold text-lg">{step.title}</span>
              <span className="text-muted-foreground text-sm">{step.text}</span>
              <span className="mt-auto h-1 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                <span
                  className={cn(
                    'block h-full rounded-full bg-primary transition-[width] ease-linear motion-reduce:transition-none',
                    isActive ? 'w-full duration-[2000ms]' : 'w-0 duration-0',
                  )}
                />
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
