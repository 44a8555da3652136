import {
  GIVEAWAY_REFUSALS,
  type Giveaway,
  type GiveawayRefusal,
  type StartGiveawayBody,
} from '@streamshop/contract/giveaways.ts';
import { streamApiPath } from '@streamshop/contract/room-urls.ts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiPost, parseApiError } from '../../lib/api/client.ts';

export const currentGiveawayQueryKey = (roomName: string) =>
  ['/api/streams', roomName, 'giveaways', 'current'] as const;

/** GET /api/streams/:name/giveaways/current, with the moment it was asked (an answer older than an event is dropped). */
export const currentGiveawayQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: currentGiveawayQueryKey(roomName),
    queryFn: async () => {
      const sentAt = Date.now();
      const answer = await apiGet<{ giveaway: Giveaway | null }>(
        `${streamApiPath(roomName)}/giveaways/current`,
      );
      return { giveaway: answer.giveaway, sentAt, receivedAt: Date.now() };
    },
    staleTime: Number.POSITIVE_INFINITY,
  });

const giveawayPath = (giveawayId: string, action?: string) =>
  `/api/giveaways/${encodeURIComponent(giveawayId)}${action ? `/${action}` : ''}`;

/** POST /api/streams/:name/giveaways (the seller). */
export const startGiveaway = (roomName: string, body: StartGiveawayBody) =>
  apiPost<Giveaway>(`${streamApiPath(roomName)}/giveaways`, body);

/** GET /api/giveaways/:id: the caller's view (`entered`; the order id for the winner and the seller). */
export const fetchGiveaway = (giveawayId: string) => apiGet<Giveaway>(giveawayPath(giveawayId));

/** POST /api/giveaways/:id/entries: 201 the giveaway (`entered: true`), else a refusal to read with entryRefusal. */
export const enterGiveaway = (giveawayId: string) => apiPost<Giveaway>(giveawayPath(giveawayId, 'entries'));

/** POST /api/giveaways/:id/cancel (the seller). */
export const cancelGiveaway = (giveawayId: string) => apiPost<Giveaway>(giveawayPath(giveawayId, 'cancel'));

/** POST /api/sellers/:handle/follow: the NOT_FOLLOWER refusal's way in. */
export const followSeller = (handle: string) =>
  apiPost<unknown>(`/api/sellers/${encodeURIComponent(handle)}/follow`);

/** What a refused entry means for the viewer: one of the contract's reasons, signed out, or another failure. */
export type EntryRefusal =
  | { kind: 'refused'; code: GiveawayRefusal; message: string }
  | { kind: 'signed_out'; message: string }
  | { kind: 'other'; message: string };

const isRefusalCode = (code: unknown): code is GiveawayRefusal =>
  typeof code === 'string' && Object.hasOwn(GIVEAWAY_REFUSALS, code);

/** Reads a failed entry (403/409 `{code, message}`, 401, ...) into words to show. */
export function entryRefusal(error: unknown): EntryRefusal {
  const { status, body } = parseApiError(error);
  const code = body?.code;
  // The contract's words, whatever the answer says: they are what the card's actions are made for.
  if ((status === 403 || status === 409) && isRefusalCode(code)) {
    return { kind: 'refused', code, message: GIVEAWAY_REFUSALS[code] };
  }
  if (status === 401) return { kind: 'signed_out', message: 'Sign in to enter the giveaway.' };
  const message = typeof body?.message === 'string' && body.message.trim() ? body.message : null;
  return { kind: 'other', message: message ?? 'Your entry did not go through. Try again.' };
}
