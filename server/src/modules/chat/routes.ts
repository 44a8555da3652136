import { createHmac } from 'node:crypto';
import { normalizeHandle } from '@streamshop/contract/auth.ts';
import {
  CHAT_MAX_LENGTH,
  CloseCode,
  clientMessageSchema,
  type ServerMessage,
} from '@streamshop/contract/live.ts';
import { ROOM_NAME_PATTERN } from '@streamshop/contract/room-name.ts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import { sameOrigin } from '../../platform/origin-check.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import type { SessionSockets } from '../../platform/session-sockets.ts';
import type { TokenBuckets } from '../../platform/token-bucket.ts';
import { findBlockedWord, roleInRooms } from '../moderation/service.ts';
import { findStreamByRoom, type StreamRecord } from '../streams/service.ts';
import { mutedMessage } from './muted-message.ts';
import {
  banUser,
  countView,
  deleteMessage,
  findModerationTarget,
  insertMessage,
  latestMessages,
  messageAuthor,
  senderStanding,
  timeOutUser,
  unbanUser,
} from './service.ts';

const send = (socket: WebSocket, message: ServerMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};
const refuse = (socket: WebSocket, code: string, message: string) =>
  send(socket, { type: 'error', code, message });

export const chatRoutes: FastifyPluginAsync<{
  db: Db;
  hub: RoomHub;
  publicUrl: string;
  /** Keys the hash that stands for a signed-out viewer's address (the address is never stored). */
  secret: string;
  sessionSockets: SessionSockets;
  limiter: TokenBuckets;
}> = async (app, { db, hub, publicUrl, secret, sessionSockets, limiter }) => {
  const viewerKey = (request: FastifyRequest) =>
    request.user
      ? `user:${request.user.id}`
      : `address:${createHmac('sha256', secret).update(request.ip).digest('base64url')}`;
  /** A limiter that cannot answer (Redis down) lets the message through: chat stays usable. */
  const allowed = (key: string, request: FastifyRequest) =>
    limiter.take(key).catch((error) => {
      request.log.warn({ err: error }, 'chat rate limit unavailable');
      return true;
    });
  const publicOrigin = new URL(publicUrl).origin;

  async function handle(socket: WebSocket, request: FastifyRequest, stream: StreamRecord, raw: string) {
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      return refuse(socket, 'BAD_MESSAGE', 'Messages must be JSON');
    }
    const parsed = clientMessageSchema.safeParse(data);
    if (!parsed.success) {
      // A refused character in a field of a known message says so ('message must not contain …').
      const textIssue = parsed.error.issues.find(
        (issue) => issue.code === 'custom' && issue.path.length === 1,
      );
      return refuse(socket, 'BAD_MESSAGE', textIssue?.message ?? 'Unknown or malformed message');
    }
    const message = parsed.data;
    const user = request.user;
    if (!user) return refuse(socket, 'SIGN_IN_REQUIRED', 'Sign in to chat');

    switch (message.type) {
      case 'chat_message': {
        const text = message.message.trim();
        if (!text) return; // empty messages are dropped
        if (text.length > CHAT_MAX_LENGTH) {
          return refuse(socket, 'TOO_LONG', `Messages can be at most ${CHAT_MAX_LENGTH} characters`);
        }
        if (!(await allowed(`${stream.id}:${user.id}`, request))) {
          return refuse(socket, 'RATE_LIMITED', 'You are sending messages too fast. Wait a moment.');
        }
        const standing = await senderStanding(db, { id: stream.id, ownerId: stream.owner_id }, user.id);
        // The owner and moderators skip slow mode; neither can be muted (appointing lifts a mute).
        const viewer = user.id !== stream.owner_id && !standing.isModerator;
        if (viewer && standing.mutedUntil !== undefined) {
          return refuse(socket, 'MUTED', mutedMessage(standing.mutedUntil));
        }
        if (viewer && standing.slowModeWaitSec > 0) {
          const wait = standing.slowModeWaitSec;
          return refuse(
            socket,
            'SLOW_MODE',
            `Slow mode is on: wait ${wait} ${wait === 1 ? 'second' : 'seconds'} before your next message`,
          );
        }
        // Blocked words bind the owner and the moderators too: they are the room's rules.
        if (findBlockedWord(text, standing.blockedWords)) {
          return refuse(socket, 'BLOCKED_WORD', 'Your message contains a word the host does not allow');
        }
        const saved = await insertMessage(db, stream.id, user.id, user.handle, text);
        return hub.publish(stream.room_name, saved);
      }
      case 'delete_message': {
        const role = await roleInRooms(db, stream.owner_id, user.id);
        if (role === 'viewer') {
          return refuse(socket, 'FORBIDDEN', 'Only the host and moderators can delete messages');
        }
        const author = await messageAuthor(db, stream.id, message.id);
        if (author === undefined) return; // already gone
        if (
          role === 'moderator' &&
          author !== null &&
          author !== user.id &&
          (await roleInRooms(db, stream.owner_id, author)) !== 'viewer'
        ) {
          return refuse(
            socket,
            'FORBIDDEN',
            'Moderators cannot delete the host’s or other moderators’ messages',
          );
        }
        if (await deleteMessage(db, stream.id, message.id)) {
          await hub.publish(stream.room_name, { type: 'message_deleted', id: message.id });
        }
        return;
      }
      case 'timeout_user':
      case 'ban_user':
      case 'mute_user':
      case 'unban_user': {
        const role = await roleInRooms(db, stream.owner_id, user.id);
        if (role === 'viewer') {
          return refuse(socket, 'FORBIDDEN', 'Only the host and moderators can time out or ban');
        }
        const handle = normalizeHandle(message.username);
        const target = await findModerationTarget(db, stream.owner_id, handle);
        if (!target) return refuse(socket, 'NOT_FOUND', 'No such user');
        if (message.type === 'unban_user') return unbanUser(db, stream.owner_id, target.id);
        if (target.isOwner) return refuse(socket, 'FORBIDDEN', 'The host cannot be timed out or banned');
        if (target.isModerator) {
          return refuse(
            socket,
            'FORBIDDEN',
            role === 'owner'
              ? `@${target.handle} is one of your moderators: remove them as a moderator first`
              : 'Moderators cannot time out or ban other moderators',
          );
        }
        if (message.type === 'timeout_user')
          return timeOutUser(db, stream.owner_id, target.id, message.seconds);
        return banUser(db, stream.owner_id, target.id);
      }
    }
  }

  app.get('/ws', { websocket: true }, (socket, request) => {
    // Listeners first, synchronously, so no frame is lost while the room is looked up.
    let ready: Promise<StreamRecord | undefined> = Promise.resolve(undefined);
    let queue: Promise<unknown> = Promise.resolve();
    socket.on('message', (data, isBinary) => {
      queue = queue.then(async () => {
        const stream = await ready;
        if (!stream) return;
        if (isBinary) return refuse(socket, 'BAD_MESSAGE', 'Messages must be JSON text');
        try {
          await handle(socket, request, stream, data.toString());
        } catch (error) {
          request.log.error({ err: error }, 'chat message failed');
          refuse(socket, 'INTERNAL', 'Something went wrong; try again');
        }
      });
    });

    const origin = request.headers.origin;
    if (origin && !sameOrigin(request, origin, publicOrigin)) {
      socket.close(CloseCode.forbidden, 'Cross-site WebSocket refused');
      return;
    }
    const roomName = (request.query as { room?: unknown }).room;
    ready = (async () => {
      const stream =
        typeof roomName === 'string' && ROOM_NAME_PATTERN.test(roomName)
          ? await findStreamByRoom(db, roomName)
          : undefined;
      if (!stream) {
        refuse(socket, 'NOT_FOUND', 'Invalid room URL');
        socket.close(CloseCode.notFound, 'No such room');
        return undefined;
      }
      // A signed-in socket posts as its user only while the session lasts.
      sessionSockets.track(request.sessionIdHash, socket);
      await countView(db, stream.id, viewerKey(request));
      await hub.join(stream.room_name, socket);
      socket.once('close', () => void hub.leave(stream.room_name, socket));
      send(socket, { type: 'chat_history', messages: await latestMessages(db, stream.id) });
      if (stream.is_active && stream.ends_at)
        send(socket, { type: 'stream_started', endsAt: iso(stream.ends_at) });
      if (stream.ended_at) send(socket, { type: 'stream_ended' });
      return stream;
    })().catch((error) => {
      request.log.error({ err: error }, 'joining a room failed');
      socket.close(1011, 'Server error');
      return undefined;
    });
  });
};
