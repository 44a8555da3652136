import { useCallback, useState } from 'react';

/** Open state for a lazily loaded dialog: `loaded` stays true after the first open. */
export function useLazyDialog() {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const onOpenChange = useCallback((next: boolean) => {
    if (next) setLoaded(true);
    setOpen(next);
  }, []);
  return { open, loaded, onOpenChange, show: useCallback(() => onOpenChange(true), [onOpenChange]) };
}
