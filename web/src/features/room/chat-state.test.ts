import type { ChatMessage } from '@streamshop/contract/live.ts';
import { describe, expect, it } from 'vitest';
import {
  CHAT_KEPT_MESSAGES,
  draftAfterError,
  initialRoomState,
  parseServerMessage,
  roomReducer,
} from './chat-state.ts';

const message = (id: number, text = `message ${id}`): ChatMessage => ({
  type: 'chat_message',
  id,
  username: 'ana',
  message: text,
  timestamp: '2025-01-01T00:00:00.000Z',
});

describe('roomReducer', () => {
  it('replaces the list with the history on (re)join', () => {
    const before = roomReducer(initialRoomState, message(1));
    const after = roomReducer(before, { type: 'chat_history', messages: [message(7), message(8)] });
    expect(after.messages.map((m) => m.id)).toEqual([7, 8]);
  });

  it('appends live messages once, even if one arrives twice', () => {
    let state = roomReducer(initialRoomState, message(1));
    state = roomReducer(state, message(2));
    state = roomReducer(state, message(2));
    expect(state.messages.map((m) => m.id)).toEqual([1, 2]);
  });

  it('keeps only the newest messages', () => {
    let state = initialRoomState;
    for (let id = 1; id <= CHAT_KEPT_MESSAGES + 5; id++) state = roomReducer(state, message(id));
    expect(state.messages).toHaveLength(CHAT_KEPT_MESSAGES);
    expect(state.messages[0]?.id).toBe(6);
  });

  it('removes a deleted message', () => {
    let state = roomReducer(initialRoomState, { type: 'chat_history', messages: [message(1), message(2)] });
    state = roomReducer(state, { type: 'message_deleted', id: 1 });
    expect(state.messages.map((m) => m.id)).toEqual([2]);
  });

  it('tracks viewer count, start and end of the stream', () => {
    let state = roomReducer(initialRoomState, { type: 'viewer_count', count: 3 });
    state = roomReducer(state, { type: 'stream_started', endsAt: '2025-01-01T00:01:39.000Z' });
    expect(state).toMatchObject({ viewerCount: 3, endsAt: '2025-01-01T00:01:39.000Z', ended: false });
    state = roomReducer(state, { type: 'stream_ended' });
    expect(state).toMatchObject({ ended: true, endsAt: null });
  });

  it('keeps the last server error until cleared', () => {
    let state = roomReducer(initialRoomState, {
      type: 'error',
      code: 'RATE_LIMITED',
      message: 'You are sending messages too fast. Wait a moment.',
    });
    expect(state.error?.code).toBe('RATE_LIMITED');
    state = roomReducer(state, { type: 'clear_error' });
    expect(state.error).toBeNull();
  });
});

describe('parseServerMessage', () => {
  it('reads a chat message and keeps HTML as plain text', () => {
    const parsed = parseServerMessage(
      JSON.stringify({ ...message(4, '<img src=x onerror=alert(1)>'), extra: true }),
    );
    expect(parsed).toEqual(message(4, '<img src=x onerror=alert(1)>'));
  });

  it("names a message without a username 'Anonymous'", () => {
    const parsed = parseServerMessage(JSON.stringify({ ...message(5), username: '' }));
    expect(parsed).toMatchObject({ username: 'Anonymous' });
  });

  it('drops unknown or malformed frames', () => {
    expect(parseServerMessage('{"type":"surprise"}')).toBeNull();
    expect(parseServerMessage('{"type":"viewer_count","count":"many"}')).toBeNull();
    expect(parseServerMessage('[1,2]')).toBeNull();
    expect(() => parseServerMessage('not json')).toThrow();
  });
});

describe('moderation refusals', () => {
  it.each([
    ['MUTED', 'You are timed out of this chat until 14:05:00 UTC (5 min from now)'],
    ['SLOW_MODE', 'Slow mode is on: wait 30 seconds before your next message'],
    ['BLOCKED_WORD', 'Your message contains a word the host does not allow'],
  ])('keeps the server’s %s message to show under the input', (code, text) => {
    const parsed = parseServerMessage(JSON.stringify({ type: 'error', code, message: text }));
    expect(parsed).not.toBeNull();
    const state = roomReducer(initialRoomState, parsed as NonNullable<typeof parsed>);
    expect(state.error).toEqual({ code, message: text });
  });

  it('puts a message refused by slow mode, a blocked word or an unavailable database back into an empty input', () => {
    expect(draftAfterError('SLOW_MODE', '', 'hello')).toBe('hello');
    expect(draftAfterError('BLOCKED_WORD', '', 'a scam')).toBe('a scam');
    expect(draftAfterError('RATE_LIMITED', '', 'again')).toBe('again');
    expect(draftAfterError('UNAVAILABLE', '', 'while the database restarts')).toBe(
      'while the database restarts',
    );
  });

  it('leaves the input alone when something new was typed or the refusal is final', () => {
    expect(draftAfterError('SLOW_MODE', 'new text', 'hello')).toBe('new text');
    expect(draftAfterError('MUTED', '', 'hello')).toBe('');
    expect(draftAfterError('FORBIDDEN', '', 'hello')).toBe('');
  });
});
