import { useState } from 'react';
import { useDelayedAction } from './use-delayed-action.ts';

/**
 * The submit flow of a form in a dialog that thanks the visitor before it closes (the marketing
 * forms): `succeed(answer)` shows the success view (`answer` is not null) for `successViewMs`,
 * then closes the dialog and runs `afterClose` (a toast). Closing the dialog, then or earlier,
 * drops the pending close and resets the form (`reset`), so it opens empty next time.
 */
export function useFormDialogFlow<Answer>({
  successViewMs,
  onOpenChange,
  reset,
}: {
  successViewMs: number;
  onOpenChange: (open: boolean) => void;
  /** Clears the form's own state (its fields, its mutation). */
  reset: () => void;
}) {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const closeLater = useDelayedAction(successViewMs);

  const handleOpenChange = (next: boolean) => {
    if (!next) {
      closeLater.cancel();
      setAnswer(null);
      reset();
    }
    onOpenChange(next);
  };

  const succeed = (value: Answer, afterClose?: () => void) => {
    setAnswer(value);
    closeLater.schedule(() => {
      handleOpenChange(false);
      afterClose?.();
    });
  };

  return { answer, succeed, handleOpenChange };
}
