import { afterEach, describe, expect, it } from 'vitest';
import { getToasts, resetToasts } from '../components/ui/use-toast.ts';
import { errorToast } from './error-toast.ts';

afterEach(resetToasts);

describe('errorToast', () => {
  it('raises a destructive toast with the title and the reason', () => {
    errorToast('Payment Failed', 'Your card was declined.');
    expect(getToasts()[0]).toMatchObject({
      title: 'Payment Failed',
      description: 'Your card was declined.',
      variant: 'destructive',
      open: true,
    });
    expect(getToasts()[0]).not.toHaveProperty('duration');
  });

  it('keeps it up for the given time', () => {
    errorToast('Order Failed', 'Please try again.', 5000);
    expect(getToasts()[0]).toMatchObject({ duration: 5000 });
  });
});
