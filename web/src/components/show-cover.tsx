import { CalendarClock } from 'lucide-react';
import { cn } from '../lib/cn.ts';

/**
 * A scheduled show's cover (16:9), or, for a show without one, the cards' gradient with a
 * calendar-clock. Decorative where the show's title is written beside it (`alt` empty).
 */
export function ShowCover({
  coverUrl,
  alt = '',
  priority = false,
  className,
}: {
  coverUrl: string | null;
  alt?: string;
  /** The page's main picture: loaded first, not lazily. */
  priority?: boolean;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'relative flex aspect-video items-center justify-center overflow-hidden bg-gradient-to-br from-violet-950 via-zinc-900 to-fuchsia-950',
        className,
      )}
    >
      {coverUrl ? (
        <img
          src={coverUrl}
          alt={alt}
          width={1280}
          height={720}
          {...(priority ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const })}
          decoding="async"
          className="absolute inset-0 size-full object-cover"
          data-testid="show-cover"
        />
      ) : (
        <CalendarClock className="size-1/5 max-h-16 max-w-16 text-violet-300" aria-hidden="true" />
      )}
    </div>
  );
}
