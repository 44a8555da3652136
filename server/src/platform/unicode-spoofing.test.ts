import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatClient, connectChat, savedChatMessages } from '../test/chat-client.ts';
import {
  buildTestApp,
  listenOnLoopback,
  newAccount,
  signUp,
  type TestApp,
  unlimited,
} from '../test/test-app.ts';

/**
 * Unicode tricks: blocked words written with invisible, full-width or look-alike letters, and
 * names that use text-direction controls to display as something else.
 */

let t: TestApp;
let base: string;
const clients: ChatClient[] = [];

/** This file signs up many accounts and sends many messages; those limits are not under test. */

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, rateLimiter: unlimited });
  base = await listenOnLoopback(t.app);
});
afterAll(async () => {
  for (const client of clients) client.socket.close();
  await t.close();
});

describe('blocked words in chat', () => {
  let room: string;

  /** A fresh viewer per message: the chat's rate limit (3 at once) is not under test. */
  async function newGuest() {
    const guest = await connectChat(base, room, (await signUp(t.app)).cookie);
    clients.push(guest);
    await guest.next('chat_history');
    return guest;
  }

  beforeAll(async () => {
    const owner = await signUp(t.app);
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/api/chat-settings',
      headers: { cookie: owner.cookie },
      payload: { slowModeSec: 0, blockedWords: ['scam'] },
    });
    expect(settings.statusCode).toBe(200);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rooms',
      headers: { cookie: owner.cookie },
      payload: { title: 'Spoofing room' },
    });
    room = created.json().roomName;
  });

  it.each([
    ['upper case', 'SCAM'],
    ['a zero-width space', 'sc\u200Bam'],
    ['a soft hyphen and a word joiner', 's\u00ADc\u2060am'],
    ['full-width letters', 'ｓｃａｍ'],
    ['Cyrillic look-alikes', 'ѕсаm'],
    ['Cyrillic capitals', 'ЅСАМ'],
    ['Greek look-alikes', 'scαm'],
    ['mathematical bold letters', '𝐬𝐜𝐚𝐦'],
    ['combining marks', 's\u0336c\u0336a\u0336m\u0336'],
    ['accents', 'scàm'],
  ])('refuses the blocked word written with %s', async (_case, word) => {
    const message = `total ${word} here`;
    const guest = await newGuest();
    guest.send({ type: 'chat_message', message });
    const refused = await guest.next('error');
    expect(refused.code).toBe('BLOCKED_WORD');
  });

  it('still lets through words that only contain it, and stores none of the refused ones', async () => {
    const guest = await newGuest();
    guest.send({ type: 'chat_message', message: 'no ѕcammers here' });
    await guest.next('chat_message', (m) => m.message === 'no ѕcammers here');
    const rows = await savedChatMessages(t, room);
    expect(rows).toEqual([{ message: 'no ѕcammers here' }]);
  });
});

describe('names with text-direction controls', () => {
  const BIDI = 'must not contain text-direction control characters';

  it.each([
    ['firstName', 'First name', { firstName: 'Bob\u202Eevil' }],
    ['lastName', 'Last name', { lastName: '\u202Bdivad' }],
    ['businessName', 'Business name', { businessName: 'Shop\u2067 isolate' }],
    ['firstName', 'First name', { firstName: 'Ann\u200F' }],
    ['lastName', 'Last name', { lastName: 'Lee\u061C' }],
  ])('a sign-up refuses one in %s with 400 naming it', async (field, label, overrides) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: newAccount(overrides),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ [field]: `${label} ${BIDI}` });
  });

  it('a sign-up refuses one in the handle with 400 naming handle', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: newAccount({ handle: 'bob\u202Eevil' }),
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields)).toEqual(['handle']);
  });

  it('a Stream Disc order refuses one in the name and the company', async () => {
    const order = {
      name: 'Ada Lovelace',
      email: `bidi_${process.pid % 1000}@example.com`,
      shippingAddress: '1 Analytical Way',
      city: 'London',
      state: 'Greater London',
      zipCode: 'N1 9GU',
    };
    for (const [field, label] of [
      ['name', 'Full name'],
      ['company', 'Company'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/stream-disc-orders',
        payload: { ...order, [field]: 'Engines\u202Edtl' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ [field]: `${label} ${BIDI}` });
    }
  });

  it('takes names in right-to-left scripts, which need no control characters', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: newAccount({ firstName: 'مريم', lastName: 'כהן', businessName: 'دكان مريم' }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ firstName: 'مريم', lastName: 'כהן', businessName: 'دكان مريم' });
  });
});
