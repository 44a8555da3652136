import type { Giveaway } from '@streamshop/contract/giveaways.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { drawnGiveaway, testGiveaway } from '../../test/giveaway-fixture.ts';
import { GiveawayCard } from './giveaway-card.tsx';
import { type RoomGiveaway, useRoomGiveaway } from './use-room-giveaway.ts';

configure({ asyncUtilTimeout: 4000 });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let room: RoomGiveaway | null = null;

function Room({ me }: { me: string | null }) {
  room = useRoomGiveaway('crate-digging', true, 'open', me);
  return <GiveawayCard room={room} hostHandle="vinyl-vault" />;
}

/**
 * The card in a room whose current giveaway is `current`; entries answer `entryAnswers` in turn,
 * GET by id answers `byId` (the caller's own view), following answers 200.
 */
function renderCard({
  current,
  entryAnswers = [],
  byId,
  me = 'ana',
}: {
  current: Giveaway;
  entryAnswers?: Array<() => Response>;
  byId?: () => Giveaway;
  me?: string | null;
}) {
  const answers = [...entryAnswers];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url}`;
    if (key === 'GET /api/streams/crate-digging/giveaways/current') return json({ giveaway: current });
    if (key === `POST /api/giveaways/${current.id}/entries`) return answers.shift()?.() ?? json({}, 500);
    if (key === `GET /api/giveaways/${current.id}` && byId) return json(byId());
    if (key === 'POST /api/sellers/vinyl-vault/follow') return json({ following: true, followers: 8 });
    return json({ message: 'No such endpoint' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${url}`);
  render(
    <QueryClientProvider client={createQueryClient({ onUnauthorized: () => {} })}>
      <MemoryRouter initialEntries={['/room/crate-digging']}>
        <Room me={me} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { calls };
}

const refused = (code: string, message: string) => () => json({ code, message }, 409);

afterEach(() => {
  cleanup();
  room = null;
  vi.unstubAllGlobals();
});

describe('the giveaway card for viewers', () => {
  it('shows the running giveaway to a late joiner and enters it in one tap', async () => {
    const current = testGiveaway({ entryCount: 2 });
    renderCard({ current, entryAnswers: [() => json({ ...current, entered: true, entryCount: 3 }, 201)] });
    const card = await screen.findByRole('region', { name: 'Giveaway' });
    expect(within(card).getByTestId('giveaway-product-title').textContent).toBe('Free: Blue Note LP');
    expect(within(card).getByTestId('giveaway-audience').textContent).toBe('Open to everyone');
    expect(within(card).getByTestId('giveaway-entry-count').textContent).toBe('2 entries');
    expect(within(card).getByTestId('giveaway-time-left').textContent).toMatch(/^Time left 0[01]:\d\d$/);
    fireEvent.click(within(card).getByRole('button', { name: 'Enter giveaway' }));
    expect((await screen.findByTestId('giveaway-entered')).textContent).toContain("You're in");
    expect(within(card).getByTestId('giveaway-entry-count').textContent).toBe('3 entries');
    expect(screen.queryByRole('button', { name: 'Enter giveaway' })).toBeNull();
    await waitFor(() =>
      expect(screen.getByTestId('giveaway-announcer').textContent).toBe(
        'Giveaway started: free Blue Note LP. Open to everyone.',
      ),
    );
  });

  it('asks a signed-out viewer to sign in, back to this room', async () => {
    renderCard({ current: testGiveaway(), me: null });
    const link = await screen.findByRole('link', { name: 'Sign in to enter' });
    expect(link.getAttribute('href')).toBe(`/signin?next=${encodeURIComponent('/room/crate-digging')}`);
    expect(screen.queryByRole('button', { name: 'Enter giveaway' })).toBeNull();
  });

  it('says why an entry was refused and, for followers only, follows the seller and enters again', async () => {
    const current = testGiveaway({ audience: 'followers' });
    const { calls } = renderCard({
      current,
      entryAnswers: [
        refused('NOT_FOLLOWER', 'not in these words'),
        () => json({ ...current, entered: true, entryCount: 1 }, 201),
      ],
    });
    expect((await screen.findByTestId('giveaway-audience')).textContent).toBe(
      'For followers of @vinyl-vault',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Enter giveaway' }));
    const refusal = await screen.findByTestId('giveaway-refusal');
    // The contract's words for the reason, whatever the answer's text.
    expect(within(refusal).getByRole('alert').textContent).toBe(
      'This giveaway is for followers: follow the seller to enter.',
    );
    fireEvent.click(within(refusal).getByRole('button', { name: 'Follow @vinyl-vault and enter' }));
    await screen.findByTestId('giveaway-entered');
    expect(calls().filter((call) => call.startsWith('POST'))).toEqual([
      `POST /api/giveaways/${current.id}/entries`,
      'POST /api/sellers/vinyl-vault/follow',
      `POST /api/giveaways/${current.id}/entries`,
    ]);
  });

  it('sends a viewer without a saved address to Settings', async () => {
    renderCard({
      current: testGiveaway(),
      entryAnswers: [refused('ADDRESS_REQUIRED', 'Add a shipping address')],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Enter giveaway' }));
    const refusal = await screen.findByTestId('giveaway-refusal');
    expect(within(refusal).getByRole('alert').textContent).toBe(
      'Add a shipping address in Settings to enter: the prize is shipped.',
    );
    const link = within(refusal).getByRole('link', { name: /Add an address in Settings/ });
    expect(link.getAttribute('href')).toBe('/settings');
    // The button stays, for a second try once the address is saved.
    expect(screen.getByRole('button', { name: 'Enter giveaway' })).toBeTruthy();
  });

  it('shows an entry the server already had as "You\'re in"', async () => {
    renderCard({
      current: testGiveaway(),
      entryAnswers: [refused('ALREADY_ENTERED', 'You have already entered this giveaway.')],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Enter giveaway' }));
    await screen.findByTestId('giveaway-entered');
    expect(screen.queryByTestId('giveaway-refusal')).toBeNull();
  });

  it('shows who won to everyone, and verifies the draw in the browser', async () => {
    const drawn = await drawnGiveaway(testGiveaway(), ['dave', 'ben', 'cleo']);
    const winner = drawn.winner?.handle ?? '';
    renderCard({ current: drawn, me: 'ana' });
    expect((await screen.findByTestId('giveaway-outcome')).textContent).toBe(`@${winner} won Blue Note LP`);
    expect(screen.queryByTestId('giveaway-you-won')).toBeNull();
    const verify = screen.getByTestId('giveaway-verify');
    fireEvent.click(within(verify).getByText('Verify the draw'));
    expect(within(verify).getByTestId('giveaway-seed').textContent).toBe(drawn.seed);
    expect(within(verify).getByTestId('giveaway-seed-hash').textContent).toBe(drawn.seedHash);
    expect(
      within(verify)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['@ben', '@cleo', '@dave']);
    fireEvent.click(within(verify).getByRole('button', { name: 'Check the draw' }));
    await waitFor(() =>
      expect(within(verify).getByRole('status').textContent).toBe(
        `Verified: the seed matches its hash and picks @${winner}`,
      ),
    );
    expect(screen.getByTestId('giveaway-announcer').textContent).toBe(`@${winner} won Blue Note LP`);
  });

  it('shows the winner "You won!" and their order, read as themself', async () => {
    const drawn = await drawnGiveaway(testGiveaway(), ['ana']);
    const { calls } = renderCard({ current: drawn, byId: () => ({ ...drawn, orderId: 'order-1' }) });
    expect((await screen.findByTestId('giveaway-you-won')).textContent).toBe('You won!');
    const link = screen.getByRole('link', { name: 'Your order' });
    expect(link.getAttribute('href')).toBe('/orders');
    await waitFor(() => expect(link.getAttribute('data-order-id')).toBe('order-1'));
    expect(calls()).toContain(`GET /api/giveaways/${drawn.id}`);
  });

  it('says "No entries" when nobody entered', async () => {
    renderCard({ current: await drawnGiveaway(testGiveaway(), []) });
    expect((await screen.findByTestId('giveaway-outcome')).textContent).toBe('No entries');
  });

  it('turns into the result when the room hears of the draw', async () => {
    const current = testGiveaway({ entered: true });
    renderCard({ current });
    await screen.findByTestId('giveaway-entered');
    const drawn = await drawnGiveaway(current, ['ana', 'ben']);
    act(() => room?.apply({ type: 'giveaway', giveaway: { ...drawn, entered: false } }));
    expect((await screen.findByTestId('giveaway-outcome')).textContent).toMatch(
      /^@(ana|ben) won Blue Note LP$/,
    );
    expect(screen.getByTestId('giveaway-card').getAttribute('data-status')).toBe('drawn');
  });
});
