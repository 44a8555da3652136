import type { ContactBody } from '@streamshop/contract/site.ts';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../lib/api/client.ts';

/** POST /api/contact: the message goes to the site's operator by email. */
export function useSendContactMessageMutation() {
  return useMutation({
    mutationFn: (body: ContactBody) => apiPost<{ ok: true }>('/api/contact', body),
  });
}
