import { describe, expect, it } from 'vitest';
import { drawnGiveaway, TEST_SEED, testGiveaway } from '../../test/giveaway-fixture.ts';
import { parseServerMessage } from './chat-state.ts';
import { checkDraw } from './giveaway-draw-check.ts';
import {
  type GiveawayState,
  giveawayOutcome,
  giveawayReducer,
  initialGiveawayState,
} from './giveaway-state.ts';

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

function viewed(...views: Parameters<typeof testGiveaway>[0][]): GiveawayState {
  return views.reduce<GiveawayState>(
    (state, overrides) =>
      giveawayReducer(state, { type: 'view', giveaway: testGiveaway(overrides), receivedAt: 1 }),
    initialGiveawayState,
  );
}

describe('giveawayReducer', () => {
  it('keeps the viewer’s entry and order when the room’s public view of the same giveaway comes after', () => {
    const mine = testGiveaway({ entered: true, entryCount: 4 });
    const entered = giveawayReducer(initialGiveawayState, { type: 'view', giveaway: mine, receivedAt: 1 });
    const publicView = testGiveaway({
      serverNow: later(mine.serverNow, 1000),
      entered: false,
      entryCount: 3,
    });
    const state = giveawayReducer(entered, { type: 'view', giveaway: publicView, receivedAt: 2 });
    expect(state.giveaway?.entered).toBe(true);
    // Entries only add up: the larger count of the two stays.
    expect(state.giveaway?.entryCount).toBe(4);
  });

  it('never undoes a draw with a running view that arrives late', async () => {
    const running = testGiveaway({ entryCount: 2 });
    const drawn = await drawnGiveaway(running, ['cleo', 'ana']);
    let state = giveawayReducer(initialGiveawayState, { type: 'view', giveaway: drawn, receivedAt: 1 });
    state = giveawayReducer(state, { type: 'view', giveaway: { ...running, entered: true }, receivedAt: 2 });
    expect(state.giveaway?.status).toBe('drawn');
    expect(state.giveaway?.entered).toBe(true);
  });

  it('replaces the last result with a giveaway started later', () => {
    const first = testGiveaway({ status: 'cancelled' });
    const second = testGiveaway({
      id: 'b0000000-0000-4000-8000-000000000002',
      startedAt: later(first.startedAt, 90_000),
      serverNow: later(first.serverNow, 90_000),
    });
    const state = viewed(first, second, first);
    expect(state.giveaway?.id).toBe(second.id);
  });

  it('takes the server clock’s offset from the kept view', () => {
    const giveaway = testGiveaway({ serverNow: new Date(10_000).toISOString() });
    const state = giveawayReducer(initialGiveawayState, { type: 'view', giveaway, receivedAt: 7000 });
    expect(state.offsetMs).toBe(3000);
  });

  it('drops the giveaway on "none" unless a view arrived after the question was asked', () => {
    const state = giveawayReducer(initialGiveawayState, {
      type: 'view',
      giveaway: testGiveaway(),
      receivedAt: 500,
    });
    expect(giveawayReducer(state, { type: 'none', sentAt: 400 })).toBe(state);
    expect(giveawayReducer(state, { type: 'none', sentAt: 600 }).giveaway).toBeNull();
  });

  it('marks the viewer entered after ALREADY_ENTERED, only for that giveaway', () => {
    const state = viewed({});
    expect(giveawayReducer(state, { type: 'entered', giveawayId: 'other' })).toBe(state);
    expect(giveawayReducer(state, { type: 'entered', giveawayId: testGiveaway().id }).giveaway?.entered).toBe(
      true,
    );
  });
});

describe('giveaway frames and outcomes', () => {
  it('reads a giveaway frame of the room socket, and drops a malformed one', () => {
    const giveaway = testGiveaway();
    expect(parseServerMessage(JSON.stringify({ type: 'giveaway', giveaway }))).toEqual({
      type: 'giveaway',
      giveaway,
    });
    expect(parseServerMessage(JSON.stringify({ type: 'giveaway', giveaway: { id: 1 } }))).toBeNull();
  });

  it('says who won, that nobody entered, or that it was cancelled', async () => {
    expect(giveawayOutcome(await drawnGiveaway(testGiveaway(), ['ana']))).toBe('@ana won Blue Note LP');
    expect(giveawayOutcome(await drawnGiveaway(testGiveaway(), []))).toBe('No entries');
    expect(giveawayOutcome(testGiveaway({ status: 'cancelled' }))).toBe('Giveaway cancelled');
  });
});

describe('checkDraw', () => {
  it('verifies a draw: the seed matches its hash and picks the winner shown', async () => {
    const drawn = await drawnGiveaway(testGiveaway(), ['dave', 'ana', 'cleo', 'ben']);
    expect(await checkDraw(drawn)).toEqual({
      ok: true,
      text: `Verified: the seed matches its hash and picks @${drawn.winner?.handle}`,
    });
  });

  it('shows a mismatch when the seed does not hash to the published hash', async () => {
    const drawn = await drawnGiveaway(testGiveaway(), ['ana', 'ben']);
    const check = await checkDraw({ ...drawn, seed: TEST_SEED.replace('7f', '00') });
    expect(check.ok).toBe(false);
    expect(check.text).toMatch(/^Mismatch: the seed hashes to [0-9a-f]{64}, not to the published /);
  });

  it('shows a mismatch when the seed picks someone other than the winner shown', async () => {
    const drawn = await drawnGiveaway(testGiveaway(), ['ana', 'ben', 'cleo']);
    const other = drawn.entrants?.find((handle) => handle !== drawn.winner?.handle) ?? '';
    const check = await checkDraw({ ...drawn, winner: { handle: other } });
    expect(check).toEqual({
      ok: false,
      text: `Mismatch: the seed picks @${drawn.winner?.handle}, but the winner shown is @${other}.`,
    });
  });

  it('verifies a draw nobody entered by the seed alone', async () => {
    const check = await checkDraw(await drawnGiveaway(testGiveaway(), []));
    expect(check.ok).toBe(true);
  });
});
