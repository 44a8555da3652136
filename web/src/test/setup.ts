import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetToasts } from '../components/ui/use-toast.ts';

/**
 * Every page unit test file (vitest.config.ts, `setupFiles`). The files of one worker share one
 * module cache, so what is app-wide in it, the toast store above all, would carry a toast left
 * by one file into the next: each test ends with nothing rendered and no toast in the store.
 */
afterEach(() => {
  cleanup();
  resetToasts();
});
