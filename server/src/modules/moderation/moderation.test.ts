import { BLOCKED_WORDS_MAX } from '@streamshop/contract/moderation.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp, unlimited } from '../../test/test-app.ts';

type Account = Awaited<ReturnType<typeof signUp>>;

/** This file signs up more accounts from one address than the sign-up limit allows; it is not under test. */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, rateLimiter: unlimited });
});
afterAll(async () => {
  await t.close();
});

const as = (account: Account | undefined) => (account ? { cookie: account.cookie } : {});

const moderators = (account?: Account) =>
  t.app.inject({ method: 'GET', url: '/api/moderators', headers: as(account) });
const appoint = (account: Account | undefined, handle: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/moderators', headers: as(account), payload: { handle } });
const dismiss = (account: Account | undefined, handle: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/moderators/${handle}`, headers: as(account) });
const settings = (account?: Account) =>
  t.app.inject({ method: 'GET', url: '/api/chat-settings', headers: as(account) });
const putSettings = (account: Account | undefined, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/chat-settings',
    headers: as(account),
    payload: payload as object,
  });

describe('moderators API', () => {
  it('appoints, lists and removes the caller’s moderators by handle', async () => {
    const seller = await signUp(t.app);
    const helper = await signUp(t.app);
    expect((await moderators(seller)).json()).toEqual([]);

    const added = await appoint(seller, ` @${helper.handle.toUpperCase()} `);
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({ handle: helper.handle, addedAt: expect.any(String) });
    expect((await moderators(seller)).json()).toEqual([added.json()]);

    const removed = await dismiss(seller, helper.handle);
    expect(removed.statusCode).toBe(204);
    expect((await moderators(seller)).json()).toEqual([]);
    expect((await dismiss(seller, helper.handle)).statusCode).toBe(404);
  });

  it('answers 400 for an unknown handle or the caller, 409 for one already appointed', async () => {
    const seller = await signUp(t.app);
    const helper = await signUp(t.app);
    const unknown = await appoint(seller, 'nobody_has_this_handle');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields).toEqual({ handle: 'No user has this handle' });
    expect((await appoint(seller, 'not a handle!')).statusCode).toBe(400);
    expect((await appoint(seller, 42)).statusCode).toBe(400);
    const self = await appoint(seller, seller.handle);
    expect(self.statusCode).toBe(400);
    expect(self.json().fields).toEqual({ handle: 'You cannot appoint yourself' });

    expect((await appoint(seller, helper.handle)).statusCode).toBe(201);
    const again = await appoint(seller, helper.handle);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT' });
  });

  it('keeps each seller’s list their own', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const helper = await signUp(t.app);
    await appoint(alice, helper.handle);

    expect((await moderators(bob)).json()).toEqual([]);
    expect((await dismiss(bob, helper.handle)).statusCode).toBe(404);
    expect((await moderators(alice)).json()).toEqual([expect.objectContaining({ handle: helper.handle })]);
    // Bob may appoint the same person for his own rooms; Alice's list is unchanged.
    expect((await appoint(bob, helper.handle)).statusCode).toBe(201);
    expect((await moderators(alice)).json()).toHaveLength(1);
  });

  it('requires signing in', async () => {
    expect((await moderators()).statusCode).toBe(401);
    expect((await appoint(undefined, 'someone')).statusCode).toBe(401);
    expect((await dismiss(undefined, 'someone')).statusCode).toBe(401);
  });
});

describe('chat settings API', () => {
  it('starts with slow mode off and no blocked words', async () => {
    const seller = await signUp(t.app);
    const response = await settings(seller);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ slowModeSec: 0, blockedWords: [] });
  });

  it('saves slow mode and the blocked words trimmed, lower-cased and without duplicates', async () => {
    const seller = await signUp(t.app);
    const saved = await putSettings(seller, {
      slowModeSec: 30,
      blockedWords: ['  Scam ', 'scam', 'DM me', 'spam'],
    });
    expect(saved.statusCode).toBe(200);
    const expected = { slowModeSec: 30, blockedWords: ['scam', 'dm me', 'spam'] };
    expect(saved.json()).toEqual(expected);
    expect((await settings(seller)).json()).toEqual(expected);

    const cleared = await putSettings(seller, { slowModeSec: 0, blockedWords: [] });
    expect(cleared.json()).toEqual({ slowModeSec: 0, blockedWords: [] });
  });

  it('refuses out-of-range slow mode and bad word lists with field errors', async () => {
    const seller = await signUp(t.app);
    const cases: Array<[unknown, string]> = [
      [{ slowModeSec: -1, blockedWords: [] }, 'slowModeSec'],
      [{ slowModeSec: 3601, blockedWords: [] }, 'slowModeSec'],
      [{ slowModeSec: 1.5, blockedWords: [] }, 'slowModeSec'],
      [{ blockedWords: [] }, 'slowModeSec'],
      [{ slowModeSec: 0, blockedWords: ['ok', '   '] }, 'blockedWords.1'],
      [{ slowModeSec: 0, blockedWords: ['x'.repeat(41)] }, 'blockedWords.0'],
      [
        { slowModeSec: 0, blockedWords: Array.from({ length: BLOCKED_WORDS_MAX + 1 }, (_, i) => `w${i}`) },
        'blockedWords',
      ],
      [{ slowModeSec: 0, blockedWords: 'scam' }, 'blockedWords'],
    ];
    for (const [payload, field] of cases) {
      const response = await putSettings(seller, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(response.json().fields)).toContain(field);
    }
    expect(
      (await putSettings(seller, { slowModeSec: 3600, blockedWords: ['x'.repeat(40)] })).statusCode,
    ).toBe(200);
    expect((await settings(seller)).json().slowModeSec).toBe(3600);
  });

  it('keeps each seller’s settings their own', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    await putSettings(alice, { slowModeSec: 10, blockedWords: ['alpha'] });
    await putSettings(bob, { slowModeSec: 60, blockedWords: ['beta'] });
    expect((await settings(alice)).json()).toEqual({ slowModeSec: 10, blockedWords: ['alpha'] });
    expect((await settings(bob)).json()).toEqual({ slowModeSec: 60, blockedWords: ['beta'] });
  });

  it('requires signing in', async () => {
    expect((await settings()).statusCode).toBe(401);
    expect((await putSettings(undefined, { slowModeSec: 0, blockedWords: [] })).statusCode).toBe(401);
  });
});

describe('GET /api/streams/:name/role', () => {
  it('says whether the caller may moderate the room: its owner and their moderators only', async () => {
    const seller = await signUp(t.app);
    const helper = await signUp(t.app);
    const viewer = await signUp(t.app);
    const otherSeller = await signUp(t.app);
    await appoint(seller, helper.handle);
    await appoint(otherSeller, viewer.handle);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rooms',
      headers: { cookie: seller.cookie },
      payload: { title: 'Role room' },
    });
    const url = `/api/streams/${created.json().roomName}/role`;
    const role = async (account?: Account) => (await t.app.inject({ url, headers: as(account) })).json();

    expect(await role(seller)).toEqual({ canModerate: true });
    expect(await role(helper)).toEqual({ canModerate: true });
    expect(await role(viewer)).toEqual({ canModerate: false }); // another seller's moderator
    expect(await role()).toEqual({ canModerate: false });

    await dismiss(seller, helper.handle);
    expect(await role(helper)).toEqual({ canModerate: false });
  });

  it('answers 404 for an unknown room and 400 for a malformed name', async () => {
    expect((await t.app.inject({ url: '/api/streams/no-such-room-1/role' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/streams/NOPE/role' })).statusCode).toBe(400);
  });
});
