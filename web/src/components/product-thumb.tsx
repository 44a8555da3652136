import type { Product } from '@streamshop/contract/catalog.ts';
import { ImageOff } from 'lucide-react';

/** The box, the image's intrinsic size and the no-image icon, per size. */
const SIZES = {
  sm: { box: 'size-12', pixels: 64, icon: 'size-5' },
  md: { box: 'size-16', pixels: 64, icon: 'size-5' },
  lg: { box: 'size-20', pixels: 80, icon: 'size-6' },
} as const;

/**
 * A product's small square picture beside its title (lineup, pinned products, dashboard rows,
 * order summaries), or a no-image icon when it has none. `alt` stays empty where the title is
 * written next to it.
 */
export function ProductThumb({
  product,
  size = 'md',
  alt = '',
  loading,
}: {
  product: Pick<Product, 'imageUrl'>;
  size?: keyof typeof SIZES;
  alt?: string;
  loading?: 'lazy';
}) {
  const { box, pixels, icon } = SIZES[size];
  return (
    <div className={`${box} flex shrink-0 items-center justify-center overflow-hidden rounded-md bg-muted`}>
      {product.imageUrl ? (
        <img
          src={product.imageUrl}
          alt={alt}
          width={pixels}
          height={pixels}
          loading={loading}
          decoding="async"
          className="size-full object-cover"
        />
      ) : (
        <ImageOff className={`${icon} text-muted-foreground`} aria-hidden="true" />
      )}
    </div>
  );
}
