import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import { copyText, selectText } from './copy-text.ts';

function setClipboard(value: unknown): void {
  Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
}

afterEach(() => {
  resetToasts();
  setClipboard(undefined);
  document.body.innerHTML = '';
  window.getSelection()?.removeAllRanges();
});

describe('copyText', () => {
  it('writes the text to the clipboard and toasts Copied', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    setClipboard({ writeText });
    const select = vi.fn();
    expect(await copyText('rtmp://example.com/live', select)).toBe(true);
    expect(writeText).toHaveBeenCalledWith('rtmp://example.com/live');
    expect(select).not.toHaveBeenCalled();
    expect(getToasts()[0]).toMatchObject({ title: 'Copied' });
    expect(getToasts()[0]?.variant).toBeUndefined();
  });

  it('selects the text and toasts an error when the clipboard refuses', async () => {
    setClipboard({ writeText: vi.fn().mockRejectedValue(new DOMException('denied', 'NotAllowedError')) });
    const select = vi.fn();
    expect(await copyText('secret', select)).toBe(false);
    expect(select).toHaveBeenCalledOnce();
    expect(getToasts()[0]).toMatchObject({ title: 'Could not copy', variant: 'destructive' });
  });

  it('does the same where there is no clipboard API', async () => {
    setClipboard(undefined);
    const select = vi.fn();
    expect(await copyText('secret', select)).toBe(false);
    expect(select).toHaveBeenCalledOnce();
    expect(getToasts()[0]).toMatchObject({ title: 'Could not copy' });
  });
});

describe('selectText', () => {
  it('selects the element’s whole text', () => {
    document.body.innerHTML = '<p>before</p><code id="key">live_abc123</code>';
    selectText(document.getElementById('key'));
    expect(window.getSelection()?.toString()).toBe('live_abc123');
  });

  it('does nothing without an element', () => {
    selectText(null);
    expect(window.getSelection()?.toString()).toBe('');
  });
});
