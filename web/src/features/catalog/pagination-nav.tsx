import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { pageWindow } from './pagination.ts';

/** Previous/next, up to 5 page buttons around the current page, and '…' plus the last page. */
export function PaginationNav({
  page,
  totalPages,
  onPageChange,
}: {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
}) {
  if (totalPages <= 1 && page <= 1) return null;
  const { pages, showLast, last } = pageWindow(page, totalPages);

  const pageButton = (p: number) => (
    <li key={p}>
      <Button
        variant={p === page ? 'default' : 'outline'}
        size="icon"
        className="size-9 tabular-nums"
        aria-label={`Page ${p}`}
        aria-current={p === page ? 'page' : undefined}
        onClick={() => onPageChange(p)}
        data-testid={`page-${p}`}
      >
        {p}
      </Button>
    </li>
  );

  return (
    <nav aria-label="Pagination" className="mt-10 flex justify-center" data-testid="pagination">
      <ul className="flex flex-wrap items-center gap-1.5">
        <li>
          <Button
            variant="outline"
            size="sm"
            disabled={page <= 1}
            onClick={() => onPageChange(page - 1)}
            aria-label="Previous page"
            data-testid="page-previous"
          >
            <ChevronLeft aria-hidden="true" />
            <span className="hidden sm:inline">Previous</span>
          </Button>
        </li>
        {pages.map(pageButton)}
        {showLast ? (
          <>
            <li aria-hidden="true" className="px-1 text-muted-foreground">
              …
            </li>
            {pageButton(last)}
          </>
        ) : null}
        <li>
          <Button
            variant="outline"
            size="sm"
            disabled={page >= totalPages}
            onClick={() => onPageChange(page + 1)}
            aria-label="Next page"
            data-testid="page-next"
          >
            <span className="hidden sm:inline">Next</span>
            <ChevronRight aria-hidden="true" />
          </Button>
        </li>
      </ul>
    </nav>
  );
}
