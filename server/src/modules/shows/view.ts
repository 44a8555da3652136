import type { RoomProduct } from '@streamshop/contract/shop.ts';
import type { Show, ShowStatus } from '@streamshop/contract/shows.ts';
import { iso } from '../../db/time.ts';
import type { ShowRow } from './repo.ts';

/** A show as the API answers it; "ended" is read off its stream. */
export function toShow(row: ShowRow, products: RoomProduct[]): Show {
  const status: ShowStatus = row.status === 'live' && row.stream_ended ? 'ended' : row.status;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    startsAt: iso(row.starts_at),
    timeZone: row.time_zone,
    coverUrl: row.cover_url,
    status,
    seller: { handle: row.seller_handle, name: row.seller_name },
    products,
    roomName: row.room_name,
    reminders: Number(row.reminders),
    reminded: row.reminded === true,
    createdAt: iso(row.created_at),
  };
}
