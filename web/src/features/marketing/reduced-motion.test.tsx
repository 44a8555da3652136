import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { resetToasts } from '../../components/ui/use-toast.ts';
import { BlogPage } from './blog-page.tsx';
import { LandingPage } from './landing-page.tsx';
import { SocialPage } from './social-page.tsx';
import { StreamDiscMusicPage } from './stream-disc-page.tsx';

/**
 * Under prefers-reduced-motion the script-driven motion stops: no reaction floats up by itself,
 * the explainer stays on the step the visitor picks, the blog logo holds its frame. (The CSS side,
 * animations and transitions, is checked in a real browser: e2e/marketing.e2e.test.ts.)
 */

function emulateReducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query === '(prefers-reduced-motion: reduce)',
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
}

const pass = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

function show(Page: ComponentType, path: string) {
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  // The cache's garbage-collection timers (the live rooms' query) are the app's, not the page's
  // motion: without them, any timer counted is one the page runs.
  const defaults = queryClient.getDefaultOptions();
  queryClient.setDefaultOptions({
    ...defaults,
    queries: { ...defaults.queries, gcTime: Number.POSITIVE_INFINITY },
  });
  render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Page />
      </MemoryRouter>
    </AppProviders>,
  );
}

const activeStep = () =>
  screen
    .getByTestId('explainer')
    .querySelector('[aria-current="step"]')
    ?.textContent?.match(/Step (\d)/)?.[1];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});

afterEach(() => {
  cleanup();
  resetToasts();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('with prefers-reduced-motion: reduce', () => {
  beforeEach(() => emulateReducedMotion(true));

  it('the landing page runs no timer: no reaction floats up by itself, the explainer stays put', async () => {
    const baseline = vi.getTimerCount();
    show(LandingPage, '/');
    await pass(10_000);
    expect(screen.queryAllByTestId('floating-reaction')).toHaveLength(0);
    expect(activeStep()).toBe('1');
    expect(vi.getTimerCount()).toBe(baseline);
    // The steps still answer a click, and the visitor's own reaction still shows.
    fireEvent.click(screen.getByRole('button', { name: /Step 3/ }));
    expect(activeStep()).toBe('3');
    fireEvent.click(screen.getAllByRole('button', { name: 'Send a heart' })[0] as HTMLElement);
    expect(screen.getAllByTestId('floating-reaction')).toHaveLength(1);
  });

  it('the music page sends no reaction of its own, not even the first', async () => {
    show(StreamDiscMusicPage, '/stream-disc/music');
    await pass(10_000);
    expect(screen.queryAllByTestId('floating-reaction')).toHaveLength(0);
  });

  it('/social sends no reaction bursts', async () => {
    show(SocialPage, '/social');
    await pass(10_000);
    expect(screen.queryAllByTestId('floating-reaction')).toHaveLength(0);
  });

  it('the blog logo holds its first frame', async () => {
    show(BlogPage, '/blog');
    await pass(2_000);
    expect(screen.getByTestId('animated-logo').getAttribute('data-frame')).toBe('0');
  });
});

describe('without a motion preference (the same checks move)', () => {
  beforeEach(() => emulateReducedMotion(false));

  it('the landing page sends reactions and advances the explainer', async () => {
    show(LandingPage, '/');
    await pass(3_100);
    expect(screen.queryAllByTestId('floating-reaction').length).toBeGreaterThan(0);
    expect(activeStep()).not.toBe('1');
  });

  it('the blog logo cycles', async () => {
    show(BlogPage, '/blog');
    await pass(500);
    expect(screen.getByTestId('animated-logo').getAttribute('data-frame')).not.toBe('0');
  });
});
