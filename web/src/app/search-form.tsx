import { Search } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Input } from '../components/ui/input.tsx';

/** Goes to /search?q={trimmed query}; an empty query after trimming does nothing. */
export function SearchForm({
  testId,
  className,
  onSearched,
}: {
  testId: string;
  className?: string;
  onSearched?: () => void;
}) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = query.trim();
    if (!trimmed) return;
    navigate(`/search?${new URLSearchParams({ q: trimmed })}`);
    onSearched?.();
  }

  return (
    <search className={className}>
      {/* The action works before the app has loaded (a prerendered page): /search?q=... */}
      <form className="relative" action="/search" onSubmit={onSubmit}>
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          type="search"
          name="q"
          aria-label="Search products"
          placeholder="Search products, sellers, streams..."
          className="pl-9"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          data-testid={testId}
        />
      </form>
    </search>
  );
}
