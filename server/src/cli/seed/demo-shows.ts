/**
 * The demo's scheduled shows and follows (issue 29): three upcoming shows by demo sellers, each
 * with a lineup of their products, and demo sellers following each other, so explore, the
 * storefronts and the landing page show "Upcoming" and follower counts from the first start.
 */

import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { DAY_MS } from './catalogue.ts';

const HOUR_MS = 60 * 60 * 1000;

const SHOWS: Array<{
  seller: string;
  title: string;
  description: string;
  inHours: number;
  timeZone: string;
}> = [
  {
    seller: 'groovevault_records',
    title: 'Friday crate dig: first pressings',
    description: 'Jazz and soul first pressings from the back room, graded live on camera.',
    inHours: 26,
    timeZone: 'America/Chicago',
  },
  {
    seller: 'mika_draws',
    title: 'Print drop: new risograph series',
    description: 'Five new prints, signed and numbered, shown one by one.',
    inHours: 3 * 24 + 2,
    timeZone: 'Asia/Tokyo',
  },
  {
    seller: 'kofi_kicks',
    title: 'Sneaker Sunday: deadstock pairs',
    description: 'Deadstock and lightly worn pairs, sizes called out live.',
    inHours: 6 * 24 + 5,
    timeZone: 'Europe/London',
  },
];

/** Each demo seller follows the next two: every one of them has followers. */
const FOLLOWS_PER_SELLER = 2;

export async function insertDemoShows(tx: Tx, sellerIds: Map<string, string>, now: number): Promise<void> {
  for (const show of SHOWS) {
    const sellerId = sellerIds.get(show.seller);
    if (!sellerId) throw new Error(`seed: missing seller ${show.seller}`);
    // On the hour, so the demo reads like a real schedule.
    const startsAt = new Date(Math.ceil((now + show.inHours * HOUR_MS) / HOUR_MS) * HOUR_MS);
    const inserted = await tx.execute<{ id: string }>(sql`
      insert into shows (seller_id, title, description, starts_at, time_zone, created_at)
      values (${sellerId}, ${show.title}, ${show.description}, ${startsAt.toISOString()}, ${show.timeZone},
        ${new Date(now - DAY_MS).toISOString()})
      returning id`);
    const showId = inserted.rows[0]?.id;
    if (!showId) continue;
    await tx.execute(sql`
      insert into show_products (show_id, product_id, position)
      select ${showId}, id, (row_number() over (order by created_at desc))::int - 1
      from (select id, created_at from products where seller_id = ${sellerId} and stock > 0
            order by created_at desc limit 3) p`);
  }
  const ids = [...sellerIds.values()];
  for (const [index, followerId] of ids.entries()) {
    for (let step = 1; step <= FOLLOWS_PER_SELLER && step < ids.length; step++) {
      const sellerId = ids[(index + step) % ids.length];
      await tx.execute(sql`
        insert into follows (follower_id, seller_id) values (${followerId}, ${sellerId}) on conflict do nothing`);
    }
  }
}
