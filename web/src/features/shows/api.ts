import type { Stream } from '@streamshop/contract/catalog.ts';
import type { ReminderResponse, Show } from '@streamshop/contract/shows.ts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost } from '../../lib/api/client.ts';
import { SHOWS_URL, showQueryKey } from '../../lib/api/shows.ts';

// Only types come from the contract: its zod schemas stay out of this bundle.

const showUrl = (id: string) => `${SHOWS_URL}/${encodeURIComponent(id)}`;

/** Once a scheduled show's time has passed, how often its page asks whether it went live. */
const STARTING_POLL_MS = 10_000;
/** Before that, how often: the seller may go live early. */
const SCHEDULED_POLL_MS = 60_000;

/**
 * GET /api/shows/:id (404 for an unknown show): `reminded` is the signed-in viewer's. Read again
 * while the show is scheduled, more often once its time has come, until it is live or missed.
 */
export const showQueryOptions = (id: string) =>
  queryOptions({
    queryKey: showQueryKey(id),
    queryFn: () => apiGet<Show>(showUrl(id)),
    refetchInterval: (query) => {
      const show = query.state.data;
      if (show?.status !== 'scheduled') return false;
      return Date.parse(show.startsAt) <= Date.now() ? STARTING_POLL_MS : SCHEDULED_POLL_MS;
    },
  });

/** The .ics of the show (GET /api/shows/:id/calendar.ics), for a download link. */
export const showCalendarUrl = (id: string) => `${showUrl(id)}/calendar.ics`;

/** POST (remind) or DELETE (forget) /api/shows/:id/reminder; the show's page takes the answer. */
export function useReminderMutation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (remind: boolean) =>
      remind
        ? apiPost<ReminderResponse>(`${showUrl(id)}/reminder`)
        : apiDelete<ReminderResponse>(`${showUrl(id)}/reminder`),
    onSuccess: ({ reminded, reminders }) =>
      queryClient.setQueryData<Show>(showQueryKey(id), (show) =>
        show ? { ...show, reminded, reminders } : show,
      ),
  });
}

/** POST /api/shows/:id/live (the seller): the show's room, made once, to go live in. */
export function useGoLiveFromShowMutation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<{ roomName: string; stream: Stream }>(`${showUrl(id)}/live`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: showQueryKey(id) }),
  });
}
