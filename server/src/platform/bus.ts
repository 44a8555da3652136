import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { type OutageLog, outageReporter, readiness, redisUsable } from './redis-outage.ts';

/**
 * Publish/subscribe between the instances of the server: in-process for one instance, Redis
 * pub/sub when REDIS_URL is set. Payloads are strings (JSON, serialised once by the publisher) or
 * bytes (live video); a channel carries one or the other.
 */
export interface Bus {
  publish(channel: string, payload: string): Promise<void>;
  /** Returns the function that removes this subscription. */
  subscribe(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  publishBytes(channel: string, payload: Buffer): Promise<void>;
  subscribeBytes(channel: string, handler: (payload: Buffer) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Handlers per channel; the transport is told about a channel on its first handler and after its last. */
function handlerRegistry<T>(transport: {
  subscribe(key: string): Promise<unknown>;
  unsubscribe(key: string): Promise<unknown>;
}) {
  const handlers = new Map<string, Set<(payload: T) => void>>();
  return {
    dispatch(key: string, payload: T) {
      for (const handler of handlers.get(key) ?? []) handler(payload);
    },
    has(key: string) {
      return handlers.has(key);
    },
    keys() {
      return handlers.keys();
    },
    async add(key: string, handler: (payload: T) => void) {
      let set = handlers.get(key);
      if (set) set.add(handler);
      else {
        set = new Set([handler]);
        handlers.set(key, set);
        await transport.subscribe(key);
      }
      return async () => {
        const current = handlers.get(key);
        current?.delete(handler);
        if (current && current.size === 0) {
          handlers.delete(key);
          await transport.unsubscribe(key);
        }
      };
    },
    clear() {
      handlers.clear();
    },
  };
}

export function memoryBus(): Bus {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    async publish(channel, payload) {
      events.emit(channel, payload);
    },
    async subscribe(channel, handler) {
      events.on(channel, handler);
      return async () => {
        events.off(channel, handler);
      };
    },
    async publishBytes(channel, payload) {
      events.emit(`bytes:${channel}`, payload);
    },
    async subscribeBytes(channel, handler) {
      events.on(`bytes:${channel}`, handler);
      return async () => {
        events.off(`bytes:${channel}`, handler);
      };
    },
    async close() {
      events.removeAllListeners();
    },
  };
}

/** How long one Redis command of the bus may take before it counts as failed. */
const COMMAND_TIMEOUT_MS = 1000;
/** How long a message delivered locally waits for the copy Redis may still echo back, to drop it. */
const ECHO_WINDOW_MS = 2000;
/** Channels per SUBSCRIBE when resubscribing after a reconnect. */
const SUBSCRIBE_BATCH = 500;
const RESUBSCRIBE_RETRY_MS = 1000;
/** How long a subscription made while the first connection is being set up waits for its outcome. */
const FIRST_READY_WAIT_MS = 5000;

export interface RedisBusOptions {
  /** Where the outage and its end are logged, once each (default: a JSON line on stderr). */
  log?: OutageLog;
}

/**
 * Redis pub/sub that degrades instead of failing while Redis is unreachable: publishing never
 * throws; a message that Redis cannot take (or that this instance's subscriber would not get back)
 * is delivered to this instance's own handlers, so each instance keeps serving its own sockets;
 * and every channel with handlers is subscribed again whenever the subscriber connection is
 * ready, so a SUBSCRIBE lost in an outage never leaves a channel deaf. What other instances miss
 * meanwhile is lost (ADR 0010: at-most-once).
 */
export function redisBus(url: string, prefix: string, { log }: RedisBusOptions = {}): Bus {
  // Bounded waits. The offline queue stays on only so that commands sent before the first
  // connection is up are not refused; after that, nothing is sent while a connection is down (the
  // bus falls back at once), and anything still queued or in flight fails at the first reconnect
  // attempt (maxRetriesPerRequest 0) or after COMMAND_TIMEOUT_MS, whichever comes first. ioredis's
  // own resubscribe is off: it only knows channels whose SUBSCRIBE succeeded, the bus knows all.
  const options = { maxRetriesPerRequest: 0, commandTimeout: COMMAND_TIMEOUT_MS, autoResubscribe: false };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  const publisherState = readiness(publisher);
  const subscriberState = readiness(subscriber);
  const outage = outageReporter('the bus', "delivers to this instance's own sockets only", log);
  let closing = false;
  const failed = (error: unknown) => {
    if (!closing) outage.failed(error);
  };
  publisher.on('error', failed);
  subscriber.on('error', failed);

  const subscriberReady = () => subscriber.status === 'ready';
  /** Resolves when the subscriber's first connection is ready or has failed, or after FIRST_READY_WAIT_MS. */
  const firstReady = new Promise<void>((resolve) => {
    const settle = () => {
      clearTimeout(timer);
      for (const event of ['ready', 'close', 'error']) subscriber.off(event, settle);
      resolve();
    };
    const timer = setTimeout(settle, FIRST_READY_WAIT_MS);
    timer.unref();
    for (const event of ['ready', 'close', 'error']) subscriber.once(event, settle);
  });
  /** Channels whose SUBSCRIBE Redis confirmed on the subscriber's current connection. */
  const confirmed = new Set<string>();
  const echoes = expectedEchoes();
  let retryTimer: NodeJS.Timeout | undefined;

  const transport = {
    async subscribe(key: string) {
      // While the connection is down the next `ready` subscribes it, with every other channel.
      if (!redisUsable(subscriber, subscriberState.seenReady)) return;
      // Not during the first handshake: ioredis would write a SUBSCRIBE then (it may be sent while
      // Redis loads), and the connection, now in subscriber mode, fails its own ready check and is
      // dropped. The first `ready` subscribes every channel; this waits for it, boundedly.
      if (!subscriberReady()) {
        await firstReady;
        if (!subscriberReady() || confirmed.has(key)) return;
      }
      try {
        await subscriber.subscribe(key);
        if (text.has(key) || bytes.has(key)) confirmed.add(key);
      } catch (error) {
        failed(error);
        retrySoon();
      }
    },
    async unsubscribe(key: string) {
      confirmed.delete(key);
      if (subscriber.status !== 'ready') return; // a new connection starts with no subscriptions
      // A stray subscription left by a failure only brings messages nobody handles.
      await subscriber.unsubscribe(key).catch(() => {});
    },
  };
  const text = handlerRegistry<string>(transport);
  // Byte channels live under their own prefix, so a channel name never carries both kinds.
  const bytes = handlerRegistry<Buffer>(transport);
  const bytesPrefix = `${prefix}bytes:`;

  /** Subscribes every channel that has handlers and is not confirmed on this connection. */
  async function resubscribe() {
    const keys = [...text.keys(), ...bytes.keys()].filter((key) => !confirmed.has(key));
    try {
      for (let i = 0; i < keys.length; i += SUBSCRIBE_BATCH) {
        const batch = keys.slice(i, i + SUBSCRIBE_BATCH);
        await subscriber.subscribe(...batch);
        for (const key of batch) if (text.has(key) || bytes.has(key)) confirmed.add(key);
      }
      if (!closing) outage.recovered({ resubscribed: keys.length });
    } catch (error) {
      failed(error);
      retrySoon();
    }
  }
  /** A SUBSCRIBE that failed on a live connection (a timeout) is tried again; a dead one waits for `ready`. */
  function retrySoon() {
    if (retryTimer || closing) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (subscriber.status === 'ready') void resubscribe();
    }, RESUBSCRIBE_RETRY_MS);
    retryTimer.unref();
  }
  subscriber.on('ready', () => void resubscribe());
  subscriber.on('close', () => {
    confirmed.clear();
    if (!closing) failed(new Error('the connection to Redis closed'));
  });

  subscriber.on('messageBuffer', (channel: Buffer, payload: Buffer) => {
    const key = channel.toString();
    if (key.startsWith(bytesPrefix)) {
      if (!echoes.take(key, payload)) bytes.dispatch(key, payload);
    } else {
      const message = payload.toString();
      if (!echoes.take(key, message)) text.dispatch(key, message);
    }
  });

  async function send<T extends string | Buffer>(
    key: string,
    payload: T,
    registry: { has(key: string): boolean; dispatch(key: string, payload: T): void },
  ) {
    if (!redisUsable(publisher, publisherState.seenReady)) {
      registry.dispatch(key, payload);
      return;
    }
    // Redis hands a message back to this instance only if it is subscribed to the channel.
    const echoed = confirmed.has(key);
    try {
      await publisher.publish(key, payload);
      if (echoed) return;
    } catch (error) {
      failed(error);
    }
    // Redis may still echo it (a SUBSCRIBE confirmed meanwhile, a reply lost): that copy is dropped.
    if (!registry.has(key)) return;
    echoes.expect(key, payload);
    registry.dispatch(key, payload);
  }

  return {
    publish: (channel, payload) => send(prefix + channel, payload, text),
    subscribe: (channel, handler) => text.add(prefix + channel, handler),
    publishBytes: (channel, payload) => send(bytesPrefix + channel, payload, bytes),
    subscribeBytes: (channel, handler) => bytes.add(bytesPrefix + channel, handler),
    async close() {
      closing = true;
      clearTimeout(retryTimer);
      text.clear();
      bytes.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}

/** Messages delivered locally that Redis may still echo: each drops one matching copy within the window. */
function expectedEchoes(now: () => number = Date.now) {
  const pending = new Map<string, Array<{ payload: string | Buffer; until: number }>>();
  let lastSweep = now();
  const same = (a: string | Buffer, b: string | Buffer) =>
    typeof a === 'string' || typeof b === 'string' ? a === b : a.equals(b);
  return {
    expect(key: string, payload: string | Buffer) {
      const t = now();
      if (t - lastSweep > ECHO_WINDOW_MS) {
        // Copies that never came back (Redis never had the message) are forgotten.
        for (const [k, list] of pending) if (list.every((entry) => entry.until < t)) pending.delete(k);
        lastSweep = t;
      }
      const list = pending.get(key) ?? [];
      if (list.length >= 256) list.shift();
      list.push({ payload, until: t + ECHO_WINDOW_MS });
      pending.set(key, list);
    },
    take(key: string, payload: string | Buffer): boolean {
      if (pending.size === 0) return false;
      const list = pending.get(key);
      if (!list) return false;
      const t = now();
      const live = list.filter((entry) => entry.until >= t);
      const index = live.findIndex((entry) => same(entry.payload, payload));
      if (index >= 0) live.splice(index, 1);
      if (live.length > 0) pending.set(key, live);
      else pending.delete(key);
      return index >= 0;
    },
  };
}
