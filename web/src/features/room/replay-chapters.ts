import type { ReplayChapters } from '@streamshop/contract/shop.ts';

export type ReplayChapter = ReplayChapters['chapters'][number];

/** Whether the chapter's product was pinned at `seconds` into the replay (its end is exclusive). */
export function isChapterAt(chapter: ReplayChapter, seconds: number): boolean {
  return chapter.startSec <= seconds && (chapter.endSec === null || seconds < chapter.endSec);
}

/** The chapters whose product was pinned at `seconds` into the replay, one per product. */
export function chaptersAt(chapters: ReplayChapter[], seconds: number): ReplayChapter[] {
  const seen = new Set<string>();
  return chapters.filter((chapter) => {
    if (!isChapterAt(chapter, seconds) || seen.has(chapter.product.id)) return false;
    seen.add(chapter.product.id);
    return true;
  });
}

/** Where a chapter's marker sits on a timeline of `durationSec`, as a percentage (0–100). */
export function markerPercent(startSec: number, durationSec: number): number | null {
  if (!Number.isFinite(durationSec) || durationSec <= 0) return null;
  return Math.min(100, Math.max(0, (startSec / durationSec) * 100));
}
