import { describe, expect, it } from 'vitest';
import { formatCountdown, formatPlanDuration, secondsUntil } from './countdown.ts';

describe('formatCountdown', () => {
  it.each([
    [0, '00:00'],
    [9, '00:09'],
    [99, '01:39'],
    [900, '15:00'],
    [-5, '00:00'],
    [59.9, '00:59'],
  ])('formats %s seconds as %s', (seconds, text) => {
    expect(formatCountdown(seconds)).toBe(text);
  });
});

describe('formatPlanDuration', () => {
  it('shows the plan card lengths as PRO 15:00 and FREE 1:39', () => {
    expect(formatPlanDuration(900)).toBe('15:00');
    expect(formatPlanDuration(99)).toBe('1:39');
  });
});

describe('secondsUntil', () => {
  const now = Date.parse('2025-01-01T00:00:00.000Z');
  it('rounds a partial second up so the timer shows 00:01 until the end', () => {
    expect(secondsUntil('2025-01-01T00:00:00.400Z', now)).toBe(1);
    expect(secondsUntil('2025-01-01T00:01:39.000Z', now)).toBe(99);
  });
  it('never goes below zero', () => {
    expect(secondsUntil('2024-12-31T23:59:00.000Z', now)).toBe(0);
  });
  it('is null without a valid end time', () => {
    expect(secondsUntil(null, now)).toBeNull();
    expect(secondsUntil('not a date', now)).toBeNull();
  });
});
