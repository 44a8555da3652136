import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

export function Label({ className, htmlFor, children, ...props }: ComponentProps<'label'>) {
  return (
    <label
      htmlFor={htmlFor}
      className={cn(
        'font-medium text-sm leading-none peer-disabled:cursor-not-allowed peer-disabled:opacity-70',
        className,
      )}
      {...props}
    >
      {children}
    </label>
  );
}
