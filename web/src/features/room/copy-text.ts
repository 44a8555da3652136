import { toast } from '../../components/ui/use-toast.ts';
import { errorToast } from '../../lib/error-toast.ts';

/**
 * Copies `text` with the clipboard API and says so in a toast. Where that is missing or refused
 * (no permission, not a secure page), `select()` is called so the text shows selected for the
 * person to copy by hand, and a red toast says so. Resolves with whether the copy worked.
 */
export async function copyText(text: string, select: () => void): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
  } catch {
    select();
    errorToast('Could not copy', 'The text is selected: copy it from there.');
    return false;
  }
  toast({ title: 'Copied' });
  return true;
}

/** Selects the element's text on the page, as a person would with the mouse. */
export function selectText(element: Element | null): void {
  const selection = window.getSelection();
  if (!element || !selection) return;
  selection.selectAllChildren(element);
}
