/**
 * Requests a page starts before the code that needs them has loaded (docs/decisions/0012):
 * the entry script, or a hover over a link, opens them; the hook or socket that would have made
 * the same request later takes the one already on its way. Whatever nobody takes is dropped
 * after a while, so a guess that was wrong costs one request and nothing more.
 */

/** An early request not taken by then is dropped (and a socket closed). */
export const EARLY_REQUEST_TTL_MS = 15_000;

/** A socket opened early, with everything it received before it was taken. */
export interface EarlySocket {
  socket: WebSocket;
  /** Text and binary frames in arrival order. */
  received: Array<string | ArrayBuffer>;
  /** Set once the socket has opened (before it was taken). */
  opened: boolean;
}

interface Pending<T> {
  value: T;
  expires: ReturnType<typeof setTimeout>;
}

const sockets = new Map<string, Pending<EarlySocket>>();
const gets = new Map<string, Pending<Promise<Response>>>();

function remember<T>(map: Map<string, Pending<T>>, key: string, value: T, drop: (value: T) => void): void {
  const expires = setTimeout(() => {
    if (map.get(key)?.value !== value) return;
    map.delete(key);
    drop(value);
  }, EARLY_REQUEST_TTL_MS);
  map.set(key, { value, expires });
}

function take<T>(map: Map<string, Pending<T>>, key: string): T | undefined {
  const pending = map.get(key);
  if (!pending) return undefined;
  map.delete(key);
  clearTimeout(pending.expires);
  return pending.value;
}

/** ws:// or wss:// URL for a same-origin path, following the page's scheme. */
export function socketUrl(path: string, location: Pick<Location, 'protocol' | 'host'> = window.location) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${path}`;
}

/** Opens a WebSocket to the same-origin `path` now, for takeEarlySocket(path) to pick up. */
export function openEarlySocket(path: string): void {
  if (sockets.has(path) || typeof WebSocket === 'undefined') return;
  const socket = new WebSocket(socketUrl(path));
  socket.binaryType = 'arraybuffer';
  const early: EarlySocket = { socket, received: [], opened: false };
  socket.onopen = () => {
    early.opened = true;
  };
  socket.onmessage = (event: MessageEvent) => {
    if (typeof event.data === 'string' || event.data instanceof ArrayBuffer) early.received.push(event.data);
  };
  socket.onclose = () => {
    // A socket that closed before anyone took it is of no use: the taker opens its own.
    if (sockets.get(path)?.value === early) take(sockets, path);
  };
  remember(sockets, path, early, (dropped) => dropped.socket.close(1000, 'not used'));
}

/**
 * The socket openEarlySocket(path) opened, if it is still connecting or open; its handlers are
 * the caller's to set (the early ones are removed).
 */
export function takeEarlySocket(path: string): EarlySocket | undefined {
  const early = take(sockets, path);
  if (!early) return undefined;
  const { socket } = early;
  socket.onopen = socket.onmessage = socket.onclose = null;
  if (socket.readyState !== WebSocket.CONNECTING && socket.readyState !== WebSocket.OPEN) return undefined;
  return early;
}

/**
 * Starts GET `url` now (with the session cookie, as the API client asks), for takeEarlyGet(url)
 * to pick up. A failed request is never kept: the taker asks again.
 */
export function startEarlyGet(url: string): void {
  if (gets.has(url) || typeof fetch === 'undefined') return;
  const response = fetch(url, {
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
  });
  response.catch(() => {
    if (gets.get(url)?.value === response) take(gets, url);
  });
  remember(gets, url, response, () => {});
}

/** The response of startEarlyGet(url), once: a second caller makes its own request. */
export function takeEarlyGet(url: string): Promise<Response> | undefined {
  return take(gets, url);
}
