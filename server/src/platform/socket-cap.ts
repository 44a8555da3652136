import type {} from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { addressBucket } from './address-bucket.ts';
import { AppError } from './errors.ts';

/**
 * Open WebSockets one client address (an IPv6 client by its /64) may hold on one instance (SOCKETS_PER_ADDRESS, default). A viewer uses two (chat and video),
 * so this is about 30 viewers behind one address (a household, an office, a campus NAT), while a
 * script cannot open thousands to inflate a room's count or exhaust the server.
 */
export const SOCKETS_PER_ADDRESS = 60;

/** Refuses a WebSocket upgrade (429, before the handshake) past `limit` open ones per address. */
export const socketCapPlugin = fp<{ limit: number }>(
  async (app: FastifyInstance, { limit }) => {
    const open = new Map<string, number>();
    app.addHook('onRequest', async (request) => {
      if (!request.ws) return;
      const address = addressBucket(request.ip);
      const count = open.get(address) ?? 0;
      if (count >= limit) {
        throw new AppError(429, 'RATE_LIMITED', 'Too many open connections from your address', undefined, {
          'retry-after': '30',
        });
      }
      open.set(address, count + 1);
      // The TCP connection outlives the handshake and closes with the WebSocket.
      request.raw.socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    });
  },
  { name: 'socket-cap' },
);
