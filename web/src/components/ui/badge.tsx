import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

const variants = {
  default: 'border-transparent bg-primary text-primary-foreground',
  secondary: 'border-transparent bg-secondary text-secondary-foreground',
  destructive: 'border-transparent bg-destructive text-destructive-foreground',
  live: 'border-transparent bg-live text-white',
  outline: 'text-foreground',
} as const;

export type BadgeVariant = keyof typeof variants;

export function Badge({
  className,
  variant = 'default',
  ...props
}: ComponentProps<'span'> & { variant?: BadgeVariant }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-md border px-2.5 py-0.5 font-semibold text-xs transition-colors',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
