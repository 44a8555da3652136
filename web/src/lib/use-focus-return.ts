import { useRef } from 'react';

/**
 * For a dialog or sheet opened without a trigger (by code): remembers what had the focus when it
 * opened and gives it back on close, when that element is still on the page. Spread the result on
 * the Radix content (`onOpenAutoFocus`, `onCloseAutoFocus`).
 */
export function useFocusReturn() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const element = opener.current;
      opener.current = null;
      if (element?.isConnected) {
        event.preventDefault();
        element.focus();
      }
    },
  };
}
