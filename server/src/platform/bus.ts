import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

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

/** Handlers per channel, subscribing to the transport on the first and unsubscribing after the last. */
function handlerRegistry<T>(transport: {
  subscribe(key: string): Promise<unknown>;
  unsubscribe(key: string): Promise<unknown>;
}) {
  const handlers = new Map<string, Set<(payload: T) => void>>();
  return {
    dispatch(key: string, payload: T) {
      for (const handler of handlers.get(key) ?? []) handler(payload);
    },
    async add(key: string, handler: (payload: T) => void) {
      let set = handlers.get(key);
      if (!set) {
        set = new Set();
        handlers.set(key, set);
        await transport.subscribe(key);
      }
      set.add(handler);
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

export function redisBus(url: string, prefix: string): Bus {
  const publisher = new Redis(url, { maxRetriesPerRequest: 2 });
  const subscriber = new Redis(url);
  const transport = {
    subscribe: (key: string) => subscriber.subscribe(key),
    unsubscribe: (key: string) => subscriber.unsubscribe(key),
  };
  const text = handlerRegistry<string>(transport);
  // Byte channels live under their own prefix, so a channel name never carries both kinds.
  const bytes = handlerRegistry<Buffer>(transport);
  const bytesPrefix = `${prefix}bytes:`;
  subscriber.on('messageBuffer', (channel: Buffer, payload: Buffer) => {
    const key = channel.toString();
    if (key.startsWith(bytesPrefix)) bytes.dispatch(key, payload);
    else text.dispatch(key, payload.toString());
  });
  return {
    async publish(channel, payload) {
      await publisher.publish(prefix + channel, payload);
    },
    subscribe: (channel, handler) => text.add(prefix + channel, handler),
    async publishBytes(channel, payload) {
      await publisher.publish(bytesPrefix + channel, payload);
    },
    subscribeBytes: (channel, handler) => bytes.add(bytesPrefix + channel, handler),
    async close() {
      text.clear();
      bytes.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
