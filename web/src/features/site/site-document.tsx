import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { SiteDocument } from './content.ts';

const LINK = /\[([^\]]+)\]\((\/[^)\s]*)\)/g;

/** A paragraph of content.ts: its `[words](/path)` become links to this site's pages. */
export function RichText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const [whole, words, to] = match;
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(
      <Link
        key={match.index}
        to={to ?? '/'}
        className="text-primary underline underline-offset-4 hover:text-foreground"
      >
        {words}
      </Link>,
    );
    last = match.index + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

/** The layout the Help Center, the Privacy Policy and the Terms share: a title, a lede, sections. */
export function SiteDocumentPage({ document, testId }: { document: SiteDocument; testId: string }) {
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16" data-testid={testId}>
      <header className="border-border border-b pb-8">
        <h1 className="font-extrabold text-4xl tracking-tight sm:text-5xl">{document.title}</h1>
        <p className="mt-4 text-lg text-muted-foreground leading-relaxed">
          <RichText text={document.summary} />
        </p>
        {document.updated ? (
          <p className="mt-3 text-muted-foreground text-sm">Last updated {document.updated}</p>
        ) : null}
      </header>
      {document.sections.map((section) => (
        <section key={section.heading} className="mt-10">
          <h2 className="font-bold text-2xl tracking-tight">{section.heading}</h2>
          {section.paragraphs?.map((paragraph) => (
            <p key={paragraph} className="mt-4 text-muted-foreground leading-relaxed">
              <RichText text={paragraph} />
            </p>
          ))}
          {section.items ? (
            <ul className="mt-4 grid list-disc gap-2 pl-6 text-muted-foreground leading-relaxed marker:text-primary">
              {section.items.map((item) => (
                <li key={item}>
                  <RichText text={item} />
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </article>
  );
}
