import { PAGINATION_BUTTONS } from '@streamshop/contract/constants.ts';

export interface PageWindow {
  /** The numbered page buttons, in order (at most 5). */
  pages: number[];
  /** An ellipsis and a last-page button follow the numbered buttons. */
  showLast: boolean;
  last: number;
}

/**
 * Spec section 2: up to 5 page buttons around the current page, and an ellipsis plus a
 * last-page button when there are more than 5 pages and the current page is less than
 * total minus 2.
 */
export function pageWindow(current: number, totalPages: number): PageWindow {
  const total = Math.max(0, Math.floor(totalPages));
  if (total === 0) return { pages: [], showLast: false, last: 0 };
  const page = Math.min(Math.max(1, Math.floor(current)), total);
  const half = Math.floor(PAGINATION_BUTTONS / 2);
  const start = Math.max(1, Math.min(page - half, total - PAGINATION_BUTTONS + 1));
  const end = Math.min(total, start + PAGINATION_BUTTONS - 1);
  const pages: number[] = [];
  for (let p = start; p <= end; p++) pages.push(p);
  const showLast = total > PAGINATION_BUTTONS && page < total - 2 && end < total;
  return { pages, showLast, last: total };
}
