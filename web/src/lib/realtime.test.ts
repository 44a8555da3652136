import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffDelay,
  isPermanentClose,
  RESTART_SPREAD_MS,
  RealtimeSocket,
  restartDelay,
  socketUrl,
} from './realtime.ts';
import { ScriptedSocket } from './scripted-socket.ts';

describe('backoffDelay', () => {
  const options = { baseMs: 500, maxMs: 10_000 };

  it('doubles per attempt without jitter at the top of the range', () => {
    const top = () => 1 - Number.EPSILON;
    expect([0, 1, 2, 3, 4].map((attempt) => backoffDelay(attempt, options, top))).toEqual([
      500, 1000, 2000, 4000, 8000,
    ]);
  });

  it('is capped at maxMs however many attempts failed', () => {
    expect(backoffDelay(5, options, () => 0.999999)).toBe(10_000);
    expect(backoffDelay(50, options, () => 0.999999)).toBe(10_000);
  });

  it('jitters to between half and all of the capped delay', () => {
    expect(backoffDelay(2, options, () => 0)).toBe(1000);
    expect(backoffDelay(2, options, () => 0.5)).toBe(1500);
    for (let i = 0; i < 100; i++) {
      const delay = backoffDelay(3, options);
      expect(delay).toBeGreaterThanOrEqual(2000);
      expect(delay).toBeLessThanOrEqual(4000);
    }
  });
});

describe('isPermanentClose', () => {
  it('stops retrying on a normal close and 4xxx, but retries abnormal closes and restarts', () => {
    expect(isPermanentClose(1000)).toBe(true);
    expect(isPermanentClose(4404)).toBe(true);
    expect(isPermanentClose(4000)).toBe(true);
    expect(isPermanentClose(1001)).toBe(false);
    expect(isPermanentClose(1006)).toBe(false);
    expect(isPermanentClose(1012)).toBe(false);
  });
});

describe('socketUrl', () => {
  it('follows the page scheme', () => {
    expect(socketUrl('/ws?room=a', { protocol: 'https:', host: 'shop.example' })).toBe(
      'wss://shop.example/ws?room=a',
    );
    expect(socketUrl('/ws?room=a', { protocol: 'http:', host: 'localhost:5173' })).toBe(
      'ws://localhost:5173/ws?room=a',
    );
  });
});

describe('after a 1012 (the server drains)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    ScriptedSocket.made = [];
    vi.stubGlobal('WebSocket', ScriptedSocket);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('spreads the return over the whole window', () => {
    expect(restartDelay(() => 0)).toBe(0);
    expect(restartDelay(() => 0.5)).toBe(RESTART_SPREAD_MS / 2);
    expect(restartDelay(() => 1 - Number.EPSILON)).toBe(RESTART_SPREAD_MS);
  });

  it('comes back after its random wait, not at once, and backs off if it is refused', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.6);
    const statuses: string[] = [];
    const socket = new RealtimeSocket<string>({
      path: '/ws?room=drained',
      parse: (raw) => raw,
      onStatus: (status) => statuses.push(status),
    });
    socket.connect();
    ScriptedSocket.made[0]?.open();
    ScriptedSocket.made[0]?.drop(1012);
    expect(statuses.at(-1)).toBe('reconnecting');

    vi.advanceTimersByTime(0.6 * RESTART_SPREAD_MS - 1);
    expect(ScriptedSocket.made).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(ScriptedSocket.made).toHaveLength(2);

    // The instance it reached refuses the upgrade too (503: the browser reports 1006).
    ScriptedSocket.made[1]?.drop(1006);
    const refusedWait = backoffDelay(1);
    vi.advanceTimersByTime(refusedWait - 1);
    expect(ScriptedSocket.made).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(ScriptedSocket.made).toHaveLength(3);
    socket.close();
  });
});
