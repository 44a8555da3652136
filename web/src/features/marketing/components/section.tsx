import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn.ts';

/** A titled band of a marketing page. */
export function Section({
  id,
  eyebrow,
  title,
  intro,
  children,
  className,
}: {
  id?: string;
  eyebrow?: string;
  title: ReactNode;
  intro?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={cn('mx-auto w-full max-w-6xl px-4 py-14 sm:px-6', className)}
    >
      {eyebrow ? (
        <p className="font-semibold text-primary text-sm uppercase tracking-widest">{eyebrow}</p>
      ) : null}
      <h2 id={headingId} className="mt-2 font-bold text-3xl tracking-tight sm:text-4xl">
        {title}
      </h2>
      {intro ? <p className="mt-3 max-w-3xl text-lg text-muted-foreground">{intro}</p> : null}
      {children ? <div className="mt-8">{children}</div> : null}
    </section>
  );
}

/** A small card for the feature, problem and pillar grids. */
export function InfoCard({
  icon,
  title,
  children,
  className,
}: {
  icon?: ReactNode;
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('rounded-xl border border-border bg-card/70 p-6', className)}>
      {icon ? (
        <div className="mb-4 flex size-11 items-center justify-center rounded-lg bg-primary/15 text-primary">
          {icon}
        </div>
      ) : null}
      <h3 className="font-semibold text-lg">{title}</h3>
      <div className="mt-2 text-muted-foreground text-sm leading-relaxed">{children}</div>
    </div>
  );
}

/** Static page frame: a headline, a lede and the page's content. */
export function StaticPage({
  title,
  lede,
  children,
}: {
  title: string;
  lede: ReactNode;
  children: ReactNode;
}) {
  return (
    <article className="pb-10">
      <header className="border-border border-b bg-gradient-to-b from-purple-950/40 to-transparent">
        <div className="mx-auto w-full max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
          <h1 className="font-extrabold text-4xl tracking-tight sm:text-5xl">{title}</h1>
          <p className="mt-4 max-w-3xl text-lg text-muted-foreground sm:text-xl">{lede}</p>
        </div>
      </header>
      {children}
    </article>
  );
}

/** An external link: always a new tab, never handing the opener over. */
export function ExternalLink({
  href,
  children,
  className,
  testId,
}: {
  href: string;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className} data-testid={testId}>
      {children}
    </a>
  );
}
