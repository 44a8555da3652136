import type { Auction } from '@streamshop/contract/auctions.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { testAuction, withBid } from '../../test/auction-fixture.ts';
import { AuctionBidderCard } from './auction-bidder-card.tsx';
import { useRoomAuction } from './use-room-auction.ts';

configure({ asyncUtilTimeout: 4000 });

// The saved-card form is another component's (and talks to the payment provider): a button here.
vi.mock('../../components/save-card/save-card-form.tsx', () => ({
  SaveCardForm: ({ onSaved }: { onSaved: (method: unknown) => void }) => (
    <button type="button" onClick={() => onSaved({ id: 'pm_1' })}>
      Save test card
    </button>
  ),
}));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function Room({ me }: { me: string | null }) {
  const room = useRoomAuction('crate-digging', true, 'open', me);
  return <AuctionBidderCard room={room} />;
}

/** The card in a room whose current auction is `current`; bids answer `bidAnswers` in turn. */
function renderCard({
  current = testAuction(),
  bidAnswers = [],
  me = 'ana',
}: {
  current?: Auction;
  bidAnswers?: Array<() => Response>;
  me?: string | null;
} = {}) {
  const answers = [...bidAnswers];
  let cardSaved = false;
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url}`;
    if (key === 'GET /api/streams/crate-digging/auctions/current') return json({ auction: current });
    if (key === `POST /api/auctions/${current.id}/bids`) return answers.shift()?.() ?? json({}, 500);
    if (key === 'GET /api/payment-methods') {
      return json({
        paymentMethods: cardSaved
          ? [
              {
                id: 'pm_1',
                brand: 'visa',
                last4: '4242',
                expMonth: 12,
                expYear: 2040,
                isDefault: true,
                createdAt: '',
              },
            ]
          : [],
        defaultShippingAddress: null,
      });
    }
    return json({ message: 'No such endpoint' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const bidBodies = () =>
    fetchMock.mock.calls
      .filter(([url, init]) => init?.method === 'POST' && url === `/api/auctions/${current.id}/bids`)
      .map(([, init]) => JSON.parse(String(init?.body)));
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/room/crate-digging']}>
        <Room me={me} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return {
    bidBodies,
    saveCard: () => {
      cardSaved = true;
    },
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the auction card for bidders', () => {
  it('bids the next amount in one tap, with a new clientBidId, and shows the viewer leading', async () => {
    const start = testAuction();
    const { bidBodies } = renderCard({
      current: start,
      bidAnswers: [() => json(withBid(start, 'ana', 1000), 201)],
    });
    expect((await screen.findByTestId('auction-price')).textContent).toBe('$10.00');
    expect(screen.getByText('Starting bid')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Bid $10.00' }));
    await screen.findByTestId('auction-leader-you');
    const [body] = bidBodies();
    expect(body.amountCents).toBe(1000);
    expect(body.clientBidId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(screen.getByRole('button', { name: 'Bid $11.00' })).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('auction-announcer').textContent).toBe('Current bid $10.00 by @ana'),
    );
  });

  it('says in words why a bid was refused: too low, or another maximum is higher', async () => {
    renderCard({
      bidAnswers: [
        () => json({ code: 'TOO_LOW', message: 'Bids start at $12.00 now.', minNextBidCents: 1200 }, 409),
        () =>
          json(
            {
              code: 'OUTBID',
              message: "Another bidder's maximum is higher. The next bid is $14.00.",
              minNextBidCents: 1400,
            },
            409,
          ),
      ],
    });
    fireEvent.click(await screen.findByTestId('auction-bid'));
    expect((await screen.findByTestId('auction-bid-error')).textContent).toContain(
      'Bids start at $12.00 now.',
    );
    expect(screen.queryByTestId('auction-outbid')).toBeNull();
    fireEvent.click(screen.getByTestId('auction-bid'));
    const notice = await screen.findByTestId('auction-outbid');
    // The next bid is the room's (no event came in this test): said once, in the notice.
    expect(notice.textContent).toBe(
      "You've been outbid. Another bidder's maximum is higher. The next bid is $10.00.",
    );
    expect(screen.queryByTestId('auction-bid-error')).toBeNull();
  });

  it('opens the first-bid sheet on 402 and sends the same bid again once a card is saved', async () => {
    const start = testAuction();
    const { bidBodies, saveCard } = renderCard({
      current: start,
      bidAnswers: [
        () => json({ code: 'PAYMENT_METHOD_REQUIRED', message: 'Add a card' }, 402),
        () => json(withBid(start, 'ana', 1000), 201),
      ],
    });
    fireEvent.click(await screen.findByTestId('auction-bid'));
    await screen.findByTestId('first-bid-sheet');
    saveCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Save test card' }));
    await screen.findByTestId('auction-leader-you');
    const [first, retry] = bidBodies();
    expect(retry).toEqual(first);
    expect(screen.queryByTestId('first-bid-sheet')).toBeNull();
  });

  it('checks the Max bid field before sending it', async () => {
    const start = testAuction();
    const { bidBodies } = renderCard({
      current: start,
      bidAnswers: [() => json(withBid(start, 'ana', 1000), 201)],
    });
    const field = await screen.findByLabelText('Max bid ($)');
    fireEvent.change(field, { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set max' }));
    expect((await screen.findByTestId('auction-max-bid-error')).textContent).toBe(
      'Bids start at $10.00 now.',
    );
    expect(bidBodies()).toHaveLength(0);
    fireEvent.change(field, { target: { value: '25.50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set max' }));
    await waitFor(() => expect(bidBodies()).toHaveLength(1));
    expect(bidBodies()[0]).toMatchObject({ maxBidCents: 2550 });
  });

  it('asks a signed-out viewer to sign in, back to this room', async () => {
    renderCard({ me: null });
    const link = await screen.findByRole('link', { name: 'Sign in to bid' });
    expect(link.getAttribute('href')).toBe(`/signin?next=${encodeURIComponent('/room/crate-digging')}`);
    expect(screen.queryByTestId('auction-bid')).toBeNull();
  });

  it('shows who it was sold to, and the winner their order once paid', async () => {
    const won = withBid(testAuction(), 'ana', 1100);
    renderCard({
      current: {
        ...won,
        status: 'ended',
        result: { winner: { handle: 'ana' }, priceCents: 1100, orderId: 'o1', payment: 'paid', payBy: null },
      },
    });
    expect((await screen.findByTestId('auction-outcome')).textContent).toBe('Sold to @ana for $11.00');
    expect(screen.getByTestId('auction-you-won').textContent).toBe('You won!');
    expect(screen.getByRole('link', { name: 'See your order' }).getAttribute('href')).toBe(
      '/dashboard?tab=orders',
    );
    expect(screen.queryByTestId('auction-bid')).toBeNull();
  });

  it('says "No bids" when the auction ended without one', async () => {
    renderCard({ current: { ...testAuction(), status: 'ended' } });
    expect((await screen.findByTestId('auction-outcome')).textContent).toBe('No bids');
  });
});
