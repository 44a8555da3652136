import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFormDialogFlow } from './use-form-dialog-flow.ts';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderFlow() {
  const onOpenChange = vi.fn();
  const reset = vi.fn();
  const view = renderHook(() => useFormDialogFlow<string>({ successViewMs: 3000, onOpenChange, reset }));
  return { view, onOpenChange, reset };
}

describe('useFormDialogFlow', () => {
  it('shows the success view for its time, then closes, resets and runs what follows', () => {
    const { view, onOpenChange, reset } = renderFlow();
    const afterClose = vi.fn();
    act(() => view.result.current.succeed('35.00', afterClose));
    expect(view.result.current.answer).toBe('35.00');
    act(() => vi.advanceTimersByTime(2999));
    expect(onOpenChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(reset).toHaveBeenCalledOnce();
    expect(afterClose).toHaveBeenCalledOnce();
    expect(view.result.current.answer).toBeNull();
  });

  it('closing during the success view resets at once and drops the pending close', () => {
    const { view, onOpenChange, reset } = renderFlow();
    const afterClose = vi.fn();
    act(() => view.result.current.succeed('35.00', afterClose));
    act(() => view.result.current.handleOpenChange(false));
    expect(reset).toHaveBeenCalledOnce();
    expect(view.result.current.answer).toBeNull();
    act(() => vi.advanceTimersByTime(3000));
    expect(onOpenChange).toHaveBeenCalledOnce();
    expect(afterClose).not.toHaveBeenCalled();
  });

  it('leaves no timer behind when the dialog goes', () => {
    const { view } = renderFlow();
    act(() => view.result.current.succeed('35.00'));
    expect(vi.getTimerCount()).toBe(1);
    view.unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('opening only passes through', () => {
    const { view, onOpenChange, reset } = renderFlow();
    act(() => view.result.current.handleOpenChange(true));
    expect(onOpenChange).toHaveBeenCalledWith(true);
    expect(reset).not.toHaveBeenCalled();
  });
});
