import { describe, expect, it } from 'vitest';
import { mutedMessage } from './muted-message.ts';

const now = new Date('2025-03-01T14:00:00.000Z');
const after = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe('mutedMessage', () => {
  it('tells a banned user they are banned, with no end', () => {
    expect(mutedMessage(null, now)).toBe('The host has banned you from their chat');
  });

  it('tells a timed-out user until when, in UTC, and how long that is', () => {
    expect(mutedMessage(after(30), now)).toBe(
      'You are timed out of this chat until 14:00:30 UTC (30 s from now)',
    );
    expect(mutedMessage(after(299.2), now)).toContain('(5 min from now)');
    expect(mutedMessage(after(3600), now)).toContain('until 15:00:00 UTC (1 h from now)');
    expect(mutedMessage(after(5400), now)).toContain('(1 h 30 min from now)');
  });

  it('never says zero seconds', () => {
    expect(mutedMessage(after(0.2), now)).toContain('(1 s from now)');
  });
});
