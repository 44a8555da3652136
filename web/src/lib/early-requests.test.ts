import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiGet } from './api/client.ts';
import { EARLY_REQUEST_TTL_MS, openEarlySocket, startEarlyGet, takeEarlyGet } from './early-requests.ts';
import { RealtimeSocket } from './realtime.ts';
import { ScriptedSocket } from './scripted-socket.ts';

const PATH = '/ws/media?room=early-room';

function realtime(received: unknown[], statuses: string[] = []) {
  return new RealtimeSocket<string>({
    path: PATH,
    parse: (raw) => `text:${raw}`,
    onMessage: (message) => received.push(message),
    onBinary: (data) => received.push(new Uint8Array(data)[0]),
    onStatus: (status) => statuses.push(status),
  });
}

describe('early sockets', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    ScriptedSocket.made = [];
    vi.stubGlobal('WebSocket', ScriptedSocket);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('hands the socket over with what it received first, in order, and opens no second one', () => {
    openEarlySocket(PATH);
    const [early] = ScriptedSocket.made;
    early?.open();
    early?.receive('reset');
    early?.receive(new Uint8Array([1]).buffer);

    const received: unknown[] = [];
    const statuses: string[] = [];
    const socket = realtime(received, statuses);
    socket.connect();
    early?.receive(new Uint8Array([2]).buffer);

    expect(ScriptedSocket.made).toHaveLength(1);
    expect(received).toEqual(['text:reset', 1, 2]);
    expect(statuses).toEqual(['connecting', 'open']);
    socket.close();
    expect(early?.closedWith).toBe(1000);
  });

  it('takes a socket that is still connecting and reports the open when it comes', () => {
    openEarlySocket(PATH);
    const statuses: string[] = [];
    realtime([], statuses).connect();
    ScriptedSocket.made[0]?.open();
    expect(ScriptedSocket.made).toHaveLength(1);
    expect(statuses).toEqual(['connecting', 'open']);
  });

  it('opens its own socket when the early one closed before it was taken', () => {
    openEarlySocket(PATH);
    ScriptedSocket.made[0]?.drop();
    realtime([]).connect();
    expect(ScriptedSocket.made).toHaveLength(2);
  });

  it('closes an early socket nobody took', () => {
    openEarlySocket(PATH);
    vi.advanceTimersByTime(EARLY_REQUEST_TTL_MS + 1);
    expect(ScriptedSocket.made[0]?.closedWith).toBe(1000);
    realtime([]).connect();
    expect(ScriptedSocket.made).toHaveLength(2);
  });

  it('stops handing over what came early once the consumer closes the socket', () => {
    openEarlySocket(PATH);
    const early = ScriptedSocket.made[0];
    early?.open();
    early?.receive('end');
    early?.receive('after');
    const received: unknown[] = [];
    const socket = new RealtimeSocket<string>({
      path: PATH,
      parse: (raw) => raw,
      onMessage: (message) => {
        received.push(message);
        if (message === 'end') socket.close();
      },
    });
    socket.connect();
    expect(received).toEqual(['end']);
  });
});

describe('early GETs', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are used once by the API client, then it asks again', async () => {
    const fetch = vi.fn(async () => Response.json({ asked: fetch.mock.calls.length }));
    vi.stubGlobal('fetch', fetch);
    startEarlyGet('/api/streams/early-room');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await apiGet('/api/streams/early-room')).toEqual({ asked: 1 });
    expect(await apiGet('/api/streams/early-room')).toEqual({ asked: 2 });
    expect(takeEarlyGet('/api/streams/early-room')).toBeUndefined();
  });

  it('are not kept when they fail', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    startEarlyGet('/api/streams/offline-room');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(takeEarlyGet('/api/streams/offline-room')).toBeUndefined();
  });
});
