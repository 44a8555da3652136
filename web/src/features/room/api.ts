import type { Stream } from '@streamshop/contract/catalog.ts';
import type { CreateRoomBody } from '@streamshop/contract/live.ts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api/client.ts';

export const streamQueryKey = (roomName: string) => ['/api/streams', roomName] as const;

/** GET /api/streams/{name}: the room's stream (404 for an unknown room). */
export const streamQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: streamQueryKey(roomName),
    queryFn: () => apiGet<Stream>(`/api/streams/${encodeURIComponent(roomName)}`),
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
