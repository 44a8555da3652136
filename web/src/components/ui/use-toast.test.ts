import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, getToasts, resetToasts, toast } from './use-toast.ts';

afterEach(() => {
  resetToasts();
  vi.useRealTimers();
});

describe('toast store', () => {
  it('shows at most one toast: a new one replaces the old', () => {
    toast({ title: 'First' });
    toast({ title: 'Second', variant: 'destructive' });
    expect(getToasts()).toHaveLength(1);
    expect(getToasts()[0]).toMatchObject({ title: 'Second', variant: 'destructive', open: true });
  });

  it('closes a dismissed toast and removes it 1,000,000 ms later', () => {
    vi.useFakeTimers();
    const handle = toast({ title: 'Saved' });
    handle.dismiss();
    expect(getToasts()[0]).toMatchObject({ id: handle.id, open: false });
    vi.advanceTimersByTime(999_999);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
  });

  it('dismisses every toast when no id is given', () => {
    toast({ title: 'One' });
    dismissToast();
    expect(getToasts().every((entry) => !entry.open)).toBe(true);
  });

  it('updates a toast in place', () => {
    const handle = toast({ title: 'Uploading' });
    handle.update({ title: 'Uploaded' });
    expect(getToasts()[0]).toMatchObject({ id: handle.id, title: 'Uploaded' });
  });
});
