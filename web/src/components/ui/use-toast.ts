import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '@streamshop/contract/constants.ts';
import type { ReactNode } from 'react';
import { useSyncExternalStore } from 'react';

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Auto-close after this many ms; the toaster's default (5000 ms) when omitted. */
  duration?: number;
}

export interface ToastEntry extends ToastOptions {
  id: string;
  open: boolean;
}

export interface ToastHandle {
  id: string;
  dismiss: () => void;
  update: (options: ToastOptions) => void;
}

/**
 * A tiny store outside React so that any code (query caches, api helpers) can raise a toast.
 * At most TOAST_LIMIT toasts are kept: a new one replaces the old.
 */
let toasts: ToastEntry[] = [];
let nextId = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setToasts(next: ToastEntry[]): void {
  const kept = new Set(next.map((entry) => entry.id));
  for (const [id, timer] of removalTimers) {
    if (!kept.has(id)) {
      clearTimeout(timer);
      removalTimers.delete(id);
    }
  }
  toasts = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  const timer = setTimeout(() => {
    removalTimers.delete(id);
    setToasts(toasts.filter((entry) => entry.id !== id));
  }, TOAST_REMOVE_DELAY_MS);
  removalTimers.set(id, timer);
}

/** Closes one toast, or all of them without an id. It is removed from the store later. */
export function dismissToast(id?: string): void {
  for (const entry of toasts) {
    if (id === undefined || entry.id === id) scheduleRemoval(entry.id);
  }
  setToasts(toasts.map((entry) => (id === undefined || entry.id === id ? { ...entry, open: false } : entry)));
}

/**
 * Closes the open red toasts: once an action succeeds, an earlier error about it (or a check the
 * form made before sending) is out of date. Other toasts stay.
 */
export function dismissErrorToasts(): void {
  const stale = toasts.filter((entry) => entry.open && entry.variant === 'destructive');
  for (const entry of stale) dismissToast(entry.id);
}

export function toast(options: ToastOptions): ToastHandle {
  nextId = (nextId + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(nextId);
  setToasts([{ ...options, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (update) => setToasts(toasts.map((entry) => (entry.id === id ? { ...entry, ...update } : entry))),
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): ToastEntry[] {
  return toasts;
}

/** The toasts in the store now (newest first), for code outside React. */
export function getToasts(): readonly ToastEntry[] {
  return toasts;
}

/** Current toasts for the toaster, plus the same `toast` and `dismiss` functions. */
export function useToast(): {
  toasts: ToastEntry[];
  toast: typeof toast;
  dismiss: typeof dismissToast;
} {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: current, toast, dismiss: dismissToast };
}

/** Test helper: forgets every toast and timer. */
export function resetToasts(): void {
  for (const timer of removalTimers.values()) clearTimeout(timer);
  removalTimers.clear();
  setToasts([]);
}
