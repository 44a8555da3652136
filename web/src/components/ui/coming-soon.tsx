import { Construction } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from './card.tsx';

/** A page that exists and is styled, but whose content is still being built. */
export function ComingSoon({
  title,
  subtitle,
  note,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  note?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">{title}</h1>
      {subtitle ? <p className="mt-3 text-lg text-muted-foreground">{subtitle}</p> : null}
      <Card className="mt-8 border-dashed">
        <CardContent className="flex items-start gap-4 p-6">
          <Construction className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden="true" />
          <div className="grid gap-1">
            <p className="font-medium">Coming soon</p>
            <p className="text-muted-foreground text-sm" data-testid="coming-soon">
              {note ?? 'This part of StreamShop is still being built. Check back soon.'}
            </p>
          </div>
        </CardContent>
      </Card>
      {children}
    </section>
  );
}
