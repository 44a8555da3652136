import { useEffect, useState } from 'react';
import { cn } from '../../../lib/cn.ts';
import { usePrefersReducedMotion } from '../hooks.ts';
import { BLOG_LOGO_FRAME_MS, BLOG_LOGO_FRAMES } from '../timings.ts';

/** Marks of the StreamShop product family, drawn here (no hot-linked assets). */
export function ProductMark({ name, className }: { name: string; className?: string }) {
  const initials = name
    .split(/\s+/)
    .map((word) => word[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <svg viewBox="0 0 48 48" role="img" aria-label={`${name} logo`} className={cn('size-12', className)}>
      <rect width="48" height="48" rx="12" fill="#1f1f26" />
      <circle cx="24" cy="24" r="17" fill="none" stroke="#a855f7" strokeWidth="3" />
      <circle cx="24" cy="24" r="10" fill="none" stroke="#ec4899" strokeWidth="2" strokeDasharray="4 3" />
      <text
        x="24"
        y="28.5"
        textAnchor="middle"
        fill="#fafafa"
        fontSize="12"
        fontWeight="800"
        fontFamily="system-ui, sans-serif"
      >
        {initials}
      </text>
    </svg>
  );
}

/** Wordmarks for the partner strip: each a small disc glyph and a name. */
export function PartnerWordmark({ name, hue }: { name: string; hue: number }) {
  // Roughly the width of the name at 17 px bold, so the mark never clips it.
  const width = Math.ceil(64 + name.length * 10.5);
  return (
    <svg viewBox={`0 0 ${width} 56`} role="img" aria-label={name} className="h-12 w-auto max-w-full">
      <circle cx="28" cy="28" r="18" fill={`hsl(${hue} 80% 60%)`} />
      <circle cx="28" cy="28" r="5" fill="#09090b" />
      <text x="56" y="34" fill="#e4e4e7" fontSize="17" fontWeight="700" fontFamily="system-ui, sans-serif">
        {name}
      </text>
    </svg>
  );
}

/**
 * The blog's animated logo: a disc whose highlight steps through 9 frames every 160 ms (spec
 * section 2). Under reduced motion it holds the first frame.
 */
export function AnimatedDiscLogo({ className }: { className?: string }) {
  const reducedMotion = usePrefersReducedMotion();
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (reducedMotion) return;
    const timer = setInterval(
      () => setFrame((current) => (current + 1) % BLOG_LOGO_FRAMES),
      BLOG_LOGO_FRAME_MS,
    );
    return () => clearInterval(timer);
  }, [reducedMotion]);
  const angle = (360 / BLOG_LOGO_FRAMES) * frame;
  return (
    <svg
      viewBox="0 0 96 96"
      role="img"
      aria-label="Stream Disc logo"
      className={cn('size-24', className)}
      data-frame={frame}
      data-testid="animated-logo"
    >
      <circle cx="48" cy="48" r="44" fill="#a855f7" />
      <path
        d="M48 4 A44 44 0 0 1 86.1 26 L48 48 Z"
        fill="#f0abfc"
        fillOpacity="0.6"
        transform={`rotate(${angle} 48 48)`}
      />
      {Array.from({ length: BLOG_LOGO_FRAMES }, (_, i) => {
        const a = ((360 / BLOG_LOGO_FRAMES) * i * Math.PI) / 180;
        return (
          <circle
            // biome-ignore lint/suspicious/noArrayIndexKey: the nine frame marks never reorder
            key={i}
            cx={48 + 36 * Math.sin(a)}
            cy={48 - 36 * Math.cos(a)}
            r={i === frame ? 4 : 2}
            fill={i === frame ? '#fff' : '#3b0764'}
          />
        );
      })}
      <circle cx="48" cy="48" r="14" fill="#09090b" />
      <circle cx="48" cy="48" r="5" fill="#ec4899" />
    </svg>
  );
}
