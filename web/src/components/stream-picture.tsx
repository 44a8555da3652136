import type { ReactNode } from 'react';

/**
 * A stream card's picture: the stream's latest thumbnail when it has one, else `fallback` (an
 * icon on the card's gradient). Decorative: the card's title names the stream.
 */
export function StreamPicture({
  thumbnailUrl,
  fallback,
}: {
  thumbnailUrl: string | null;
  fallback: ReactNode;
}) {
  if (!thumbnailUrl) return <>{fallback}</>;
  return (
    <img
      src={thumbnailUrl}
      alt=""
      loading="lazy"
      decoding="async"
      className="absolute inset-0 size-full object-cover"
      data-testid="stream-thumbnail"
    />
  );
}
