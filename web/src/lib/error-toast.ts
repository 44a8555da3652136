import type { ReactNode } from 'react';
import { type ToastHandle, toast } from '../components/ui/use-toast.ts';

/**
 * The red toast: what the user asked for did not happen, and why (for a failed call, usually
 * `errorMessage(error, fallback)`). `duration` in ms; the toaster's default when omitted.
 */
export function errorToast(title: ReactNode, description: ReactNode, duration?: number): ToastHandle {
  return toast({
    title,
    description,
    variant: 'destructive',
    ...(duration === undefined ? {} : { duration }),
  });
}
