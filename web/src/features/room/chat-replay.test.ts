import { describe, expect, it } from 'vitest';
import { formatOffset, messagesUpTo, REPLAY_VISIBLE, replayMoment } from './chat-replay.ts';

const at = (offsetSec: number, id = offsetSec) => ({ id, username: 'fan', message: `m${id}`, offsetSec });

describe('messagesUpTo', () => {
  it('shows only what was sent by the current replay time, and everything again after a seek back', () => {
    const all = [at(1), at(5), at(5.5), at(30)];
    expect(messagesUpTo(all, 0).map((m) => m.id)).toEqual([]);
    expect(messagesUpTo(all, 5.5).map((m) => m.id)).toEqual([1, 5, 5.5]);
    expect(messagesUpTo(all, 60).map((m) => m.id)).toEqual([1, 5, 5.5, 30]);
    expect(messagesUpTo(all, 2).map((m) => m.id)).toEqual([1]);
  });

  it('keeps the latest ones when more were sent than the panel shows', () => {
    const many = Array.from({ length: REPLAY_VISIBLE + 20 }, (_, i) => at(i));
    const shown = messagesUpTo(many, 1000);
    expect(shown).toHaveLength(REPLAY_VISIBLE);
    expect(shown[0]?.id).toBe(20);
  });
});

describe('replayMoment', () => {
  const video = (currentTime: number, duration: number, ended = false) => ({ currentTime, duration, ended });

  it('is the video time while the replay plays or is paused before its end', () => {
    expect(replayMoment(video(0, 8.3))).toBe(0);
    expect(replayMoment(video(4.2, 8.3))).toBe(4.2);
    // Not loaded yet: no length to be at the end of.
    expect(replayMoment(video(0, Number.NaN))).toBe(0);
  });

  it('is the end of the stream at the end of the video: a message said after the recording stopped shows', () => {
    // Sent 0.1 s before End: 8.7 s after the stream's start, in a recording 8.28 s long.
    const said = [at(0.6, 1), at(8.7, 2)];
    expect(messagesUpTo(said, replayMoment(video(8.28, 8.28))).map((m) => m.id)).toEqual([1, 2]);
    expect(messagesUpTo(said, replayMoment(video(8.2, 8.28, true))).map((m) => m.id)).toEqual([1, 2]);
    expect(messagesUpTo(said, replayMoment(video(8.2, 8.28))).map((m) => m.id)).toEqual([1]);
  });
});

it('formats a moment in the replay', () => {
  expect(formatOffset(0)).toBe('0:00');
  expect(formatOffset(75.4)).toBe('1:15');
  expect(formatOffset(3700)).toBe('1:01:40');
});
