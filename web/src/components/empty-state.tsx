import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import { Card } from './ui/card.tsx';

/** A dashed card with an icon, a heading and one line of help. */
export function EmptyState({
  icon: Icon,
  title,
  description,
  children,
  testId,
  headingLevel = 3,
  className,
}: {
  icon: LucideIcon;
  title: string;
  description?: string;
  children?: ReactNode;
  testId?: string;
  headingLevel?: 2 | 3;
  className?: string;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <Card
      className={cn(
        'flex flex-col items-center justify-center gap-2 border-dashed px-6 py-12 text-center',
        className,
      )}
      data-testid={testId}
    >
      <Icon className="size-10 text-muted-foreground" aria-hidden="true" />
      <Heading className="font-semibold text-lg">{title}</Heading>
      {description ? <p className="max-w-md text-muted-foreground text-sm">{description}</p> : null}
      {children}
    </Card>
  );
}
