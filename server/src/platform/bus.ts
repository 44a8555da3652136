import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/**
 * Publish/subscribe between the instances of the server: in-process for one instance, Redis
 * pub/sub when REDIS_URL is set. Payloads are strings, serialised once by the publisher.
 */
export interface Bus {
  publish(channel: string, payload: string): Promise<void>;
  /** Returns the function that removes this subscription. */
  subscribe(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
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
    async close() {
      events.removeAllListeners();
    },
  };
}

export function redisBus(url: string, prefix: string): Bus {
  const publisher = new Redis(url, { maxRetriesPerRequest: 2 });
  const subscriber = new Redis(url);
  const handlers = new Map<string, Set<(payload: string) => void>>();
  subscriber.on('message', (channel: string, payload: string) => {
    for (const handler of handlers.get(channel) ?? []) handler(payload);
  });
  return {
    async publish(channel, payload) {
      await publisher.publish(prefix + channel, payload);
    },
    async subscribe(channel, handler) {
      const key = prefix + channel;
      let set = handlers.get(key);
      if (!set) {
        set = new Set();
        handlers.set(key, set);
        await subscriber.subscribe(key);
      }
      set.add(handler);
      return async () => {
        const current = handlers.get(key);
        current?.delete(handler);
        if (current && current.size === 0) {
          handlers.delete(key);
          await subscriber.unsubscribe(key);
        }
      };
    },
    async close() {
      handlers.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
