import type { ChatSettings, ChatSettingsBody, Moderator, RoomRole } from '@streamshop/contract/moderation.ts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost, apiPut } from './client.ts';

// The default query function GETs the key joined with '/', so these keys are the URLs.
export const moderatorsQueryOptions = queryOptions({
  queryKey: ['/api/moderators'],
  queryFn: () => apiGet<Moderator[]>('/api/moderators'),
});

export const chatSettingsQueryOptions = queryOptions({
  queryKey: ['/api/chat-settings'],
  queryFn: () => apiGet<ChatSettings>('/api/chat-settings'),
});

/** GET /api/streams/{name}/role: whether the signed-in user may moderate the room's chat. */
export const roomRoleQueryOptions = (roomName: string) =>
  queryOptions({
    queryKey: ['/api/streams', roomName, 'role'],
    queryFn: () => apiGet<RoomRole>(`/api/streams/${encodeURIComponent(roomName)}/role`),
  });

export function useSaveChatSettingsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChatSettingsBody) => apiPut<ChatSettings>('/api/chat-settings', body),
    onSuccess: (saved) => queryClient.setQueryData(chatSettingsQueryOptions.queryKey, saved),
  });
}

export function useAddModeratorMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (handle: string) => apiPost<Moderator>('/api/moderators', { handle }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderatorsQueryOptions.queryKey }),
  });
}

export function useRemoveModeratorMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (handle: string) => apiDelete<void>(`/api/moderators/${encodeURIComponent(handle)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderatorsQueryOptions.queryKey }),
  });
}
