import { ROOM_NAME_PATTERN } from '@streamshop/contract/room-name.ts';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { sameOrigin } from '../../platform/origin-check.ts';
import { findStreamByRoom } from '../streams/service.ts';

export const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;

/**
 * What both WebSocket routes, the publisher's (ingest/browser/routes.ts) and the viewers'
 * (delivery/ws/routes.ts), check first: whether another site's page opened the socket, and the
 * stream of the room the query names.
 */
export function socketChecks(db: Db, publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin;

  function crossSite(request: FastifyRequest) {
    const origin = request.headers.origin;
    return origin !== undefined && !sameOrigin(request, origin, publicOrigin);
  }

  /** The room the query names, when it is a room name at all. */
  function roomOf(request: FastifyRequest): string | undefined {
    const room = queryOf(request).room;
    return typeof room === 'string' && ROOM_NAME_PATTERN.test(room) ? room : undefined;
  }

  async function liveStream(request: FastifyRequest) {
    const room = roomOf(request);
    return room === undefined ? undefined : findStreamByRoom(db, room);
  }

  return { crossSite, liveStream, roomOf };
}
