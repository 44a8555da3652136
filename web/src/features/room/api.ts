import type { Stream } from '@streamshop/contract/catalog.ts';
import {
  INGEST_AVAILABILITY_URL,
  type Ingest,
  type IngestAvailability,
} from '@streamshop/contract/ingest.ts';
import type { ChatReplay, CreateRoomBody } from '@streamshop/contract/live.ts';
import type { CheckoutAnswer } from '@streamshop/contract/payments.ts';
import { streamApiPath } from '@streamshop/contract/room-urls.ts';
import type { ShippingAddress } from '@streamshop/contract/shipping.ts';
import type { ReplayChapters, RoomShop, StartOfferBody } from '@streamshop/contract/shop.ts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost } from '../../lib/api/client.ts';

export const streamQueryKey = (roomName: string) => ['/api/streams', roomName] as const;

/** GET /api/streams/{name}: the room's stream (404 for an unknown room). */
export const streamQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: streamQueryKey(roomName),
    queryFn: () => apiGet<Stream>(streamApiPath(roomName)),
  });

export function useCreateRoomMutation() {
  return useMutation({
    mutationFn: (body: CreateRoomBody) => apiPost<{ roomName: string; stream: Stream }>('/api/rooms', body),
  });
}

/** POST /api/streams/{name}/start and /end (owner only); both answer the updated stream. */
export function useStreamControlMutation(roomName: string, action: 'start' | 'end') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<Stream>(`/api/streams/${encodeURIComponent(roomName)}/${action}`),
    onSuccess: (stream) => queryClient.setQueryData(streamQueryKey(roomName), stream),
  });
}

/** GET /api/ingest: whether this server takes encoders at all; the OBS panels show only if it does. */
export const ingestAvailabilityQueryOptions = queryOptions({
  queryKey: [INGEST_AVAILABILITY_URL] as const,
  queryFn: () => apiGet<IngestAvailability>(INGEST_AVAILABILITY_URL),
  staleTime: Number.POSITIVE_INFINITY,
});

/** Whether to show "Stream from OBS": only once the server said it takes encoders. */
export function useEncodersTaken(): boolean {
  return useQuery(ingestAvailabilityQueryOptions).data?.rtmp === true;
}

export const ingestQueryKey = (roomName: string) => ['/api/streams', roomName, 'ingest'] as const;

/** How often the owner's page asks whether an encoder is publishing (no socket message says so). */
export const INGEST_POLL_MS = 3000;

/**
 * GET /api/streams/{name}/ingest (owner only): the RTMP server URL, the stream key and whether an
 * encoder publishes now, polled while a page shows it (not in a background tab). The key is a
 * credential: dropped from the cache as soon as no page uses it.
 */
export const ingestQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: ingestQueryKey(roomName),
    queryFn: () => apiGet<Ingest>(`${streamApiPath(roomName)}/ingest`),
    refetchInterval: INGEST_POLL_MS,
    gcTime: 0,
  });

/** POST /api/streams/{name}/ingest/rotate: a new stream key (the old key's encoder is dropped). */
export function useRotateIngestKeyMutation(roomName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<Ingest>(`${streamApiPath(roomName)}/ingest/rotate`),
    // A poll still in flight would put the old key back.
    onMutate: () => queryClient.cancelQueries({ queryKey: ingestQueryKey(roomName) }),
    onSuccess: (ingest) => queryClient.setQueryData(ingestQueryKey(roomName), ingest),
  });
}

/** GET /api/streams/{name}/chat-replay: the stream's chat with each message's moment in the replay. */
export const chatReplayQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: ['/api/streams', roomName, 'chat-replay'],
    queryFn: () => apiGet<ChatReplay>(`${streamApiPath(roomName)}/chat-replay`),
  });

export const roomShopQueryKey = (roomName: string) => ['/api/streams', roomName, 'shop'] as const;

/** GET /api/streams/:name/shop: the lineup, the pinned products and the running offer. */
export const roomShopQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: roomShopQueryKey(roomName),
    queryFn: () => apiGet<RoomShop>(`${streamApiPath(roomName)}/shop`),
  });

export const replayChaptersQueryKey = (roomName: string) => ['/api/streams', roomName, 'chapters'] as const;

/** GET /api/streams/:name/chapters: when each product was pinned, for the replay. */
export const replayChaptersQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: replayChaptersQueryKey(roomName),
    queryFn: () => apiGet<ReplayChapters>(`${streamApiPath(roomName)}/chapters`),
  });

/** What the seller or a moderator can change in the room's shop. */
export type ShopChange =
  | { kind: 'add'; productId: string }
  | { kind: 'remove'; productId: string }
  | { kind: 'pin'; productId: string }
  | { kind: 'unpin'; productId: string }
  | { kind: 'start-offer'; offer: StartOfferBody }
  | { kind: 'end-offer' };

function sendChange(roomName: string, change: ShopChange): Promise<RoomShop> {
  const base = streamApiPath(roomName);
  switch (change.kind) {
    case 'add':
      return apiPost(`${base}/lineup`, { productId: change.productId });
    case 'remove':
      return apiDelete(`${base}/lineup/${encodeURIComponent(change.productId)}`);
    case 'pin':
      return apiPost(`${base}/pins`, { productId: change.productId });
    case 'unpin':
      return apiDelete(`${base}/pins/${encodeURIComponent(change.productId)}`);
    case 'start-offer':
      return apiPost(`${base}/offers`, change.offer);
    case 'end-offer':
      return apiPost(`${base}/offers/end`);
  }
}

/** Each change answers the new shop; it goes into the cache (every viewer also gets it on the socket). */
export function useShopChangeMutation(roomName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ShopChange) => sendChange(roomName, change),
    onSuccess: (shop) => queryClient.setQueryData(roomShopQueryKey(roomName), shop),
  });
}

export interface RoomCheckout {
  productId: string;
  roomName: string;
  showBuyer: boolean;
  /** A new number per opening of the checkout sheet, so each opening asks for its own session. */
  opening: number;
  /** Where a shipped product goes (null for digital and pickup products). */
  shippingAddress?: ShippingAddress | null;
}

/**
 * POST /api/checkout/:id from a room or its replay when no unit is left (so nothing is held):
 * the order of a buyer who paid for it moments ago, or 409. Never stale, never retried, dropped
 * from the cache once the sheet closes. Pay opens the session itself (lib/checkout-session.ts).
 */
export const roomCheckoutQueryOptions = ({
  productId,
  roomName,
  showBuyer,
  opening,
  shippingAddress,
}: RoomCheckout) =>
  queryOptions({
    queryKey: ['room-checkout', productId, roomName, showBuyer, opening, shippingAddress],
    queryFn: () =>
      apiPost<CheckoutAnswer>(`/api/checkout/${encodeURIComponent(productId)}`, {
        roomName,
        showBuyer,
        ...(shippingAddress ? { shippingAddress } : {}),
      }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
