import { useCallback, useEffect, useRef } from 'react';

/**
 * Runs `callback` once after `delayMs`, and returns a function that starts it. Starting again
 * replaces the pending run; unmounting cancels it.
 */
export function useDelayedAction(delayMs: number): {
  schedule: (callback: () => void) => void;
  cancel: () => void;
} {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const cancel = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  }, []);
  const schedule = useCallback(
    (callback: () => void) => {
      cancel();
      timer.current = setTimeout(() => {
        timer.current = undefined;
        callback();
      }, delayMs);
    },
    [cancel, delayMs],
  );
  useEffect(() => cancel, [cancel]);
  return { schedule, cancel };
}
