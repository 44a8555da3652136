import { TOAST_DURATION_MS } from '@streamshop/contract/constants.ts';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast.tsx';
import { dismissToast, useToast } from './use-toast.ts';

/** Swipe right past 50 px to dismiss; F8 moves focus to the notification area. */
const SWIPE_THRESHOLD_PX = 50;
const VIEWPORT_HOTKEY = ['F8'];

export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastProvider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={SWIPE_THRESHOLD_PX}>
      {toasts.map(({ id, title, description, variant, duration, open }) => (
        <Toast
          key={id}
          open={open}
          variant={variant}
          duration={duration}
          data-testid="toast"
          onOpenChange={(nextOpen) => {
            if (!nextOpen) dismissToast(id);
          }}
        >
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport hotkey={VIEWPORT_HOTKEY} />
    </ToastProvider>
  );
}
