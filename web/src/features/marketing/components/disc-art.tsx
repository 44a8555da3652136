import { useId } from 'react';
import { cn } from '../../../lib/cn.ts';

export type DiscEdition = 'disc' | 'music' | 'film';

const editionColors: Record<DiscEdition, [string, string, string]> = {
  disc: ['#a855f7', '#ec4899', '#f59e0b'],
  music: ['#8b5cf6', '#06b6d4', '#22d3ee'],
  film: ['#f43f5e', '#f97316', '#facc15'],
};

/**
 * The Stream Disc drawn as SVG: a collectible disc with an NFC coil and a QR-style mark in the
 * hub. `spin` turns the label slowly (stopped under reduced motion by the stylesheet).
 */
export function DiscArt({
  edition = 'disc',
  spin = false,
  className,
  title = 'Stream Disc',
}: {
  edition?: DiscEdition;
  spin?: boolean;
  className?: string;
  title?: string;
}) {
  const id = useId().replaceAll(':', '');
  const [a, b, c] = editionColors[edition];
  return (
    <svg viewBox="0 0 320 320" role="img" aria-label={title} className={cn('h-auto w-full', className)}>
      <defs>
        <linearGradient id={`${id}-face`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={a} />
          <stop offset="0.55" stopColor={b} />
          <stop offset="1" stopColor={c} />
        </linearGradient>
        <radialGradient id={`${id}-sheen`} cx="0.35" cy="0.3" r="0.8">
          <stop offset="0" stopColor="#fff" stopOpacity="0.45" />
          <stop offset="0.5" stopColor="#fff" stopOpacity="0.05" />
          <stop offset="1" stopColor="#000" stopOpacity="0.25" />
        </radialGradient>
      </defs>
      <circle cx="160" cy="160" r="150" fill="#0b0b10" />
      <g className={spin ? 'ss-spin-slow' : undefined} style={{ transformOrigin: '160px 160px' }}>
        <circle cx="160" cy="160" r="144" fill={`url(#${id}-face)`} />
        {[128, 112, 96, 80].map((r) => (
          <circle
            key={r}
            cx="160"
            cy="160"
            r={r}
            fill="none"
            stroke="#000"
            strokeOpacity="0.18"
            strokeWidth="1.5"
          />
        ))}
        <path
          d="M160 16 A144 144 0 0 1 304 160 L272 160 A112 112 0 0 0 160 48 Z"
          fill="#fff"
          fillOpacity="0.12"
        />
        <text
          x="160"
          y="86"
          textAnchor="middle"
          fill="#fff"
          fontSize="20"
          fontWeight="800"
          letterSpacing="3"
          fontFamily="system-ui, sans-serif"
        >
          STREAM DISC
        </text>
      </g>
      <circle cx="160" cy="160" r="144" fill={`url(#${id}-sheen)`} />
      {/* NFC coil */}
      <g fill="none" stroke="#fff" strokeOpacity="0.85" strokeWidth="2.5">
        <rect x="112" y="112" width="96" height="96" rx="18" />
        <rect x="120" y="120" width="80" height="80" rx="14" strokeOpacity="0.5" />
      </g>
      {/* QR-style hub mark */}
      <rect x="130" y="130" width="60" height="60" rx="8" fill="#0b0b10" />
      {[
        [136, 136],
        [166, 136],
        [136, 166],
      ].map(([x, y]) => (
        <g key={`${x}-${y}`}>
          <rect x={x} y={y} width="18" height="18" rx="3" fill="#fff" />
          <rect x={(x ?? 0) + 5} y={(y ?? 0) + 5} width="8" height="8" rx="1.5" fill="#0b0b10" />
        </g>
      ))}
      {[
        [168, 168],
        [176, 176],
        [168, 180],
        [180, 166],
      ].map(([x, y]) => (
        <rect key={`${x}-${y}`} x={x} y={y} width="6" height="6" fill="#fff" />
      ))}
    </svg>
  );
}

/** A phone receiving the tap: used in the explainers. */
export function PhoneTapArt({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 200 200" role="img" aria-label="A phone tapping a Stream Disc" className={className}>
      <circle cx="70" cy="130" r="52" fill="#a855f7" />
      <circle cx="70" cy="130" r="14" fill="#0b0b10" />
      <g className="ss-pulse-ring" style={{ transformOrigin: '118px 92px' }}>
        <circle cx="118" cy="92" r="30" fill="none" stroke="#f0abfc" strokeWidth="3" />
      </g>
      <rect x="104" y="20" width="72" height="130" rx="14" fill="#131318" stroke="#e4e4e7" strokeWidth="4" />
      <rect x="114" y="36" width="52" height="84" rx="6" fill="#1f1f26" />
      <path d="M132 64 L152 78 L132 92 Z" fill="#ec4899" />
      <circle cx="140" cy="134" r="6" fill="#e4e4e7" />
    </svg>
  );
}
