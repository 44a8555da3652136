import { formatCents } from '@streamshop/contract/money.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import type { Show } from '@streamshop/contract/shows.ts';
import { CalendarPlus, Download, ExternalLink, ImageOff } from 'lucide-react';
import { Link } from 'react-router';
import { LIVE_BADGE_CLASS } from '../../components/product-card.tsx';
import { ShippingNote } from '../../components/shipping-note.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { secondsUntil } from '../../lib/countdown.ts';
import { describeTimeLeft, splitSeconds } from '../../lib/show-time.ts';
import { useNow } from '../../lib/use-now.ts';
import { showCalendarUrl } from './api.ts';
import { googleCalendarUrl } from './calendar-links.ts';

/** The show's status as a badge: Upcoming, LIVE, Ended, Missed. */
export function StatusBadge({ status }: { status: Show['status'] }) {
  const label = { scheduled: 'Upcoming', live: 'LIVE', ended: 'Ended', missed: 'Missed' }[status];
  return (
    <Badge
      variant={status === 'live' ? 'live' : 'secondary'}
      className={
        status === 'live' ? LIVE_BADGE_CLASS : status === 'scheduled' ? 'bg-violet-800 text-white' : ''
      }
      data-testid="show-status"
    >
      {label}
    </Badge>
  );
}

const pad2 = (value: number) => String(value).padStart(2, '0');

/**
 * A scheduled show's countdown to its start, ticking each second: days, hours, minutes, seconds;
 * once the time has come, a line saying the seller has not gone live yet.
 */
export function ShowCountdown({ startsAt }: { startsAt: string }) {
  const now = useNow(true);
  const left = secondsUntil(startsAt, now) ?? 0;
  if (left === 0) {
    return (
      <p
        className="rounded-lg border border-primary/40 bg-primary/10 px-4 py-3 font-medium text-sm"
        data-testid="show-starting"
      >
        Starting any moment: the seller has not gone live yet. This page updates when they do.
      </p>
    );
  }
  const { days, hours, minutes, seconds } = splitSeconds(left);
  const parts: [string, string][] = [
    [String(days), days === 1 ? 'day' : 'days'],
    [pad2(hours), 'hrs'],
    [pad2(minutes), 'min'],
    [pad2(seconds), 'sec'],
  ];
  return (
    <div role="timer" aria-label={`Starts in ${describeTimeLeft(left)}`} data-testid="show-countdown">
      <p className="mb-2 font-medium text-muted-foreground text-sm" aria-hidden="true">
        Starts in
      </p>
      <div className="grid grid-cols-4 gap-2" aria-hidden="true">
        {parts.map(([value, label]) => (
          <div key={label} className="rounded-lg border border-border bg-muted/40 px-2 py-2 text-center">
            <span className="block font-bold text-2xl tabular-nums sm:text-3xl">{value}</span>
            <span className="block text-muted-foreground text-xs">{label}</span>
          </div>
        ))}
      </div>
    </div>
  );
}

/** "Add to calendar": the .ics download and a Google Calendar link (a new tab). */
export function CalendarLinks({ show }: { show: Show }) {
  const pageUrl = `${window.location.origin}/shows/${show.id}`;
  return (
    <div className="flex flex-col gap-2" data-testid="show-calendar">
      <p className="flex items-center gap-1.5 font-medium text-sm">
        <CalendarPlus className="size-4 text-muted-foreground" aria-hidden="true" />
        Add to calendar
      </p>
      <div className="flex flex-wrap gap-2">
        <a
          href={showCalendarUrl(show.id)}
          download={`show-${show.id}.ics`}
          className={buttonClasses({ variant: 'outline', size: 'sm' })}
          data-testid="show-ics"
        >
          <Download aria-hidden="true" />
          Download .ics
        </a>
        <a
          href={googleCalendarUrl(show, pageUrl)}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClasses({ variant: 'outline', size: 'sm' })}
          data-testid="show-google-calendar"
        >
          <ExternalLink aria-hidden="true" />
          Google Calendar<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>
    </div>
  );
}

/** One product of the lineup: picture, title and price, to its page. */
function LineupCard({ product }: { product: RoomProduct }) {
  const path = `/products/${encodeURIComponent(product.id)}`;
  return (
    <Card className="flex h-full flex-col overflow-hidden" data-testid="show-product">
      <Link to={path} tabIndex={-1} aria-hidden="true" className="relative block aspect-square bg-muted">
        {product.imageUrl ? (
          <img
            src={product.imageUrl}
            alt=""
            width={300}
            height={300}
            loading="lazy"
            decoding="async"
            className="size-full object-cover"
          />
        ) : (
          <span className="flex size-full flex-col items-center justify-center gap-1 text-muted-foreground text-xs">
            <ImageOff className="size-6" aria-hidden="true" />
            No Image
          </span>
        )}
        {product.stock === 0 ? (
          <Badge variant="destructive" className="absolute top-2 left-2">
            Sold Out
          </Badge>
        ) : null}
      </Link>
      <div className="flex flex-1 flex-col gap-1 p-3">
        <h3 className="line-clamp-2 font-semibold text-sm leading-snug">
          <Link to={path} className="underline-offset-2 hover:underline">
            {product.title}
          </Link>
        </h3>
        <p className="mt-auto flex flex-wrap items-baseline gap-x-2 pt-1">
          <span className="font-bold">{formatCents(product.priceCents)}</span>
          <ShippingNote product={product} testId="show-product-shipping" />
        </p>
      </div>
    </Card>
  );
}

/** The show's lineup as cards, or a line saying there is none yet. */
export function Lineup({ products, status }: { products: RoomProduct[]; status: Show['status'] }) {
  return (
    <section aria-labelledby="show-lineup-heading" className="flex flex-col gap-4" data-testid="show-lineup">
      <h2 id="show-lineup-heading" className="font-bold text-xl">
        {status === 'scheduled' ? 'What will be on sale' : 'In this show'}
        {products.length > 0 ? (
          <span className="ml-2 font-normal text-base text-muted-foreground">({products.length})</span>
        ) : null}
      </h2>
      {products.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="show-lineup-empty">
          The seller has not picked the products for this show yet.
        </p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-5">
          {products.map((product) => (
            <li key={product.id}>
              <LineupCard product={product} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
