import { Heart } from 'lucide-react';
import { type CSSProperties, useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { cn } from '../../../lib/cn.ts';
import { randomBetween, usePrefersReducedMotion, useRandomTimer } from '../hooks.ts';
import { EDITION_REACTIONS, REACTION_BURST } from '../timings.ts';

/** Spec section 9's reaction set, with music notes (landing, music) or film symbols. */
const BASE_REACTIONS = [
  { emoji: '❤️', label: 'Heart' },
  { emoji: '😍', label: 'Heart eyes' },
  { emoji: '🔥', label: 'Fire' },
  { emoji: '👍', label: 'Thumbs up' },
  { emoji: '🎉', label: 'Party' },
  { emoji: '😮', label: 'Shocked' },
  { emoji: '💯', label: '100' },
  { emoji: '🙏', label: 'Praying hands' },
  { emoji: '‼️', label: 'Double exclamation' },
] as const;

export interface ReactionChoice {
  emoji: string;
  label: string;
}

export const MUSIC_REACTIONS: ReactionChoice[] = [...BASE_REACTIONS, { emoji: '🎶', label: 'Music notes' }];
export const FILM_REACTIONS: ReactionChoice[] = [
  ...BASE_REACTIONS,
  { emoji: '🎬', label: 'Clapperboard' },
  { emoji: '🎭', label: 'Masks' },
];
/** The social page: a heart button plus these six. */
export const SOCIAL_EMOJI_REACTIONS: ReactionChoice[] = [
  { emoji: '😍', label: 'Heart eyes' },
  { emoji: '🔥', label: 'Fire' },
  { emoji: '👍', label: 'Thumbs up' },
  { emoji: '🎉', label: 'Party' },
  { emoji: '😮', label: 'Shocked' },
  { emoji: '💯', label: '100' },
];

/** A floating reaction (spec section 3): client only. */
export interface FloatingReaction {
  id: number;
  emoji: string;
  startedAt: number;
  isMusic: boolean;
  /** Horizontal start position, percent of the layer's width. */
  left: number;
  /** Sideways drift while it rises, in px. */
  drift: number;
}

/**
 * The reactions floating right now, kept outside React state: adding one re-renders only the
 * layer that draws them (ReactionLayer), not the whole page around it.
 */
export interface ReactionFeed {
  subscribe(onChange: () => void): () => void;
  getSnapshot(): FloatingReaction[];
}

const NO_REACTIONS: FloatingReaction[] = [];

function createReactionFeed(lifetimeMs: number) {
  let reactions = NO_REACTIONS;
  let nextId = 0;
  let active = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const listeners = new Set<() => void>();
  const set = (next: FloatingReaction[]) => {
    reactions = next;
    for (const listener of listeners) listener();
  };
  return {
    subscribe(onChange: () => void) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    getSnapshot: () => reactions,
    add(emoji: string) {
      // Before mount or after unmount (a late timer of another component) nothing starts.
      if (!active) return;
      nextId += 1;
      const reaction: FloatingReaction = {
        id: nextId,
        emoji,
        startedAt: Date.now(),
        isMusic: emoji === '🎶',
        left: randomBetween(8, 82),
        drift: randomBetween(-40, 40),
      };
      set([...reactions.slice(-40), reaction]);
      const timer = setTimeout(() => {
        timers.delete(timer);
        set(reactions.filter((r) => r.id !== reaction.id));
      }, lifetimeMs);
      timers.add(timer);
    },
    start() {
      active = true;
    },
    stop() {
      active = false;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      set(NO_REACTIONS);
    },
  };
}

/**
 * Reactions that float for `lifetimeMs` and then remove themselves; their timers die with the
 * component. `reactions` goes to a ReactionLayer; `addReaction` is stable.
 */
export function useFloatingReactions(lifetimeMs: number): {
  reactions: ReactionFeed;
  addReaction: (emoji: string) => void;
} {
  const feed = useMemo(() => createReactionFeed(lifetimeMs), [lifetimeMs]);
  useEffect(() => {
    feed.start();
    return () => feed.stop();
  }, [feed]);
  return { reactions: feed, addReaction: feed.add };
}

const pick = <T,>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** Random bursts of 1 to 3 reactions every 1.5 to 3 s (landing, disc and social pages). */
export function useReactionBursts(addReaction: (emoji: string) => void, choices: readonly ReactionChoice[]) {
  const reducedMotion = usePrefersReducedMotion();
  useRandomTimer(
    () => {
      const count = randomBetween(REACTION_BURST.minCount, REACTION_BURST.maxCount);
      for (let i = 0; i < count; i += 1) addReaction(pick(choices).emoji);
    },
    { minMs: REACTION_BURST.minMs, maxMs: REACTION_BURST.maxMs, enabled: !reducedMotion },
  );
}

/**
 * The music and film pages: one reaction every 2 to 4 s with a 70% chance each time; the music
 * page also sends one 1 s after load.
 */
export function useEditionReactions(
  addReaction: (emoji: string) => void,
  choices: readonly ReactionChoice[],
  withFirst: boolean,
) {
  const reducedMotion = usePrefersReducedMotion();
  const emit = useCallback(() => addReaction(pick(choices).emoji), [addReaction, choices]);
  useEffect(() => {
    if (!withFirst || reducedMotion) return;
    const timer = setTimeout(emit, EDITION_REACTIONS.firstMs);
    return () => clearTimeout(timer);
  }, [withFirst, reducedMotion, emit]);
  useRandomTimer(
    () => {
      if (Math.random() < EDITION_REACTIONS.chance) emit();
    },
    { minMs: EDITION_REACTIONS.minMs, maxMs: EDITION_REACTIONS.maxMs, enabled: !reducedMotion },
  );
}

/** The rising emojis, drawn over whatever the layer's parent holds. */
export function ReactionLayer({
  reactions: feed,
  lifetimeMs,
  className,
}: {
  reactions: ReactionFeed;
  lifetimeMs: number;
  className?: string;
}) {
  const reactions = useSyncExternalStore(feed.subscribe, feed.getSnapshot, feed.getSnapshot);
  return (
    <div aria-hidden="true" className={cn('pointer-events-none absolute inset-0 overflow-hidden', className)}>
      {reactions.map((reaction) => (
        <span
          key={reaction.id}
          data-testid="floating-reaction"
          className="ss-reaction absolute bottom-4 text-3xl drop-shadow-lg"
          style={
            {
              left: `${reaction.left}%`,
              '--drift': `${reaction.drift}px`,
              '--lifetime': `${lifetimeMs}ms`,
            } as CSSProperties
          }
        >
          {reaction.emoji}
        </span>
      ))}
    </div>
  );
}

/** The reaction buttons beside the disc: a big heart, then the emoji set. */
export function ReactionPanel({
  choices,
  onReact,
  orientation = 'vertical',
  className,
}: {
  choices: readonly ReactionChoice[];
  onReact: (emoji: string) => void;
  orientation?: 'vertical' | 'horizontal';
  className?: string;
}) {
  return (
    <fieldset
      className={cn(
        'flex gap-2 rounded-full border border-border bg-card/80 p-2 shadow-lg backdrop-blur',
        orientation === 'vertical' ? 'flex-col' : 'flex-row flex-wrap justify-center',
        className,
      )}
      data-testid="reaction-panel"
    >
      <legend className="sr-only">Send a reaction</legend>
      <button
        type="button"
        aria-label="Send a heart"
        onClick={() => onReact('❤️')}
        className="flex size-11 cursor-pointer items-center justify-center rounded-full bg-pink-600 text-white transition-transform hover:scale-110 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring active:scale-95"
      >
        <Heart className="size-5 fill-current" aria-hidden="true" />
      </button>
      {choices
        .filter((choice) => choice.emoji !== '❤️')
        .map((choice) => (
          <button
            key={choice.emoji}
            type="button"
            aria-label={`Send ${choice.label}`}
            onClick={() => onReact(choice.emoji)}
            className="flex size-11 cursor-pointer items-center justify-center rounded-full bg-muted text-xl transition-transform hover:scale-110 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring active:scale-95"
          >
            <span aria-hidden="true">{choice.emoji}</span>
          </button>
        ))}
    </fieldset>
  );
}
