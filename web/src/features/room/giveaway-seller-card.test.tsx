import type { Giveaway } from '@streamshop/contract/giveaways.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { testGiveaway } from '../../test/giveaway-fixture.ts';
import { GiveawayDialog } from './giveaway-dialog.tsx';
import { SellerGiveawayCard } from './giveaway-seller-card.tsx';
import type { RoomGiveaway } from './use-room-giveaway.ts';

configure({ asyncUtilTimeout: 4000 });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function stubFetch(answer: () => Response) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function withProviders(children: React.ReactNode) {
  return (
    <QueryClientProvider client={createQueryClient({ onUnauthorized: () => {} })}>
      <MemoryRouter>{children}</MemoryRouter>
    </QueryClientProvider>
  );
}

const makeRoom = (giveaway: Giveaway | null, applyView = vi.fn()) =>
  ({
    giveaway,
    offsetMs: 0,
    receivedAt: 0,
    me: 'vinyl-vault',
    apply: () => {},
    applyView,
    markEntered: () => {},
  }) satisfies RoomGiveaway;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Start giveaway dialog', () => {
  const product = testGiveaway().product as RoomProduct;

  it('starts a giveaway for the audience and the length chosen, 60 seconds by default', async () => {
    const started = testGiveaway({ audience: 'followers' });
    const fetchMock = stubFetch(() => json(started, 201));
    const onStarted = vi.fn();
    render(
      withProviders(
        <GiveawayDialog
          roomName="crate-digging"
          product={product}
          onStarted={onStarted}
          onClose={() => {}}
        />,
      ),
    );
    const duration = screen.getByLabelText('Duration') as HTMLSelectElement;
    expect(duration.value).toBe('60');
    fireEvent.click(screen.getByRole('radio', { name: /Followers only/ }));
    fireEvent.change(duration, { target: { value: '120' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start giveaway' }));
    await waitFor(() => expect(onStarted).toHaveBeenCalledWith(started));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/streams/crate-digging/giveaways');
    expect(JSON.parse(String(init?.body))).toEqual({
      productId: product.id,
      audience: 'followers',
      durationSec: 120,
    });
  });

  it('shows the server’s refusal in its words', async () => {
    stubFetch(() =>
      json(
        { code: 'CONFLICT', message: 'Another giveaway is running in this room: wait for it to end.' },
        409,
      ),
    );
    render(
      withProviders(
        <GiveawayDialog roomName="crate-digging" product={product} onStarted={() => {}} onClose={() => {}} />,
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Start giveaway' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Another giveaway is running in this room: wait for it to end.',
    );
  });
});

describe('the seller’s giveaway card', () => {
  it('shows the clock and the count, and cancels after a confirm', async () => {
    const running = testGiveaway({ entryCount: 5 });
    const fetchMock = stubFetch(() => json({ ...running, status: 'cancelled' }));
    const applyView = vi.fn();
    render(
      withProviders(
        <SellerGiveawayCard room={makeRoom(running, applyView)} hostHandle="vinyl-vault" canCancel />,
      ),
    );
    const card = screen.getByTestId('seller-giveaway');
    expect(within(card).getByTestId('giveaway-entry-count').textContent).toBe('5 entries');
    expect(within(card).getByTestId('giveaway-time-left').textContent).toMatch(/^Time left 0[01]:\d\d$/);
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel giveaway' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('The 5 entries so far are dropped.');
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel giveaway' }));
    await waitFor(() =>
      expect(applyView).toHaveBeenCalledWith(expect.objectContaining({ status: 'cancelled' })),
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe(`/api/giveaways/${running.id}/cancel`);
  });

  it('offers no Cancel to a moderator', () => {
    render(
      withProviders(
        <SellerGiveawayCard room={makeRoom(testGiveaway())} hostHandle="vinyl-vault" canCancel={false} />,
      ),
    );
    expect(screen.getByTestId('seller-giveaway')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel giveaway' })).toBeNull();
  });
});
