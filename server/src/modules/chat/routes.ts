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
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../../db/unavailable.ts';
import { addressBucket } from '../../platform/address-bucket.ts';
import { sameOrigin } from '../../platform/origin-check.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import type { SessionSockets } from '../../platform/session-sockets.ts';
import type { TokenBuckets } from '../../platform/token-bucket.ts';
import { findBlockedWord, roleInRooms } from '../moderation/service.ts';
import { findStreamByRoom, type StreamRecord } from '../streams/service.ts';
import { mutedMessage } from './muted-message.ts';
import {
  banUser,
  type ChatWriter,
  countView,
  deleteMessage,
  findModerationTarget,
  roomHistory,
  senderStanding,
  timeOutUser,
  unbanUser,
} from './service.ts';

/** A delete of a message whose row is being written waits this long for it, then asks to try again. */
const DELETE_WAIT_MS = 10_000;

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
  /** Accepted messages go through it to the database, after their broadcast. */
  writer: ChatWriter;
}> = async (app, { db, hub, publicUrl, secret, sessionSockets, limiter, writer }) => {
  const viewerKey = (request: FastifyRequest) =>
    request.user
      ? `user:${request.user.id}`
      : `address:${createHmac('sha256', secret).update(addressBucket(request.ip)).digest('base64url')}`;
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
        // Slow mode counts the saved messages (in the standing) and those this instance holds.
        const wait = Math.max(
          standing.slowModeWaitSec,
          writer.slowModeWaitSec(stream.id, user.id, standing.slowModeSec, standing.now),
        );
        if (viewer && wait > 0) {
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
        if (!writer.accepting) {
          return refuse(socket, 'RESTARTING', 'The server is restarting: send it again in a moment');
        }
        // Accepted: in the journal, then broadcast; its row is written after, in a batch.
        const accepted = await writer.accept({
          streamId: stream.id,
          userId: user.id,
          username: user.handle,
          message: text,
          createdAt: standing.now.toISOString(),
        });
        return hub.publish(stream.room_name, accepted);
      }
      case 'delete_message': {
        const role = await roleInRooms(db, stream.owner_id, user.id);
        if (role === 'viewer') {
          return refuse(socket, 'FORBIDDEN', 'Only the host and moderators can delete messages');
        }
        const author = await writer.authorOf(stream.id, message.id);
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
        // Not written yet: it never will be. Being written: delete the row once it is there.
        if (await writer.withdraw(stream.id, message.id)) {
          await hub.publish(stream.room_name, { type: 'message_deleted', id: message.id });
          // One taken over from a server that crashed may have had its row written already.
          void deleteMessage(db, stream.id, message.id).catch((error) =>
            request.log.error({ err: error }, 'deleting a withdrawn chat message failed'),
          );
          return;
        }
        if (!(await writer.whenSaved(message.id, DELETE_WAIT_MS))) {
          return refuse(socket, 'TRY_AGAIN', 'This message is still being saved; try again in a moment');
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
          if (isDatabaseUnavailable(error)) {
            // Not sent, and the sender is told so: the web client puts the text back in the input.
            request.log.warn({ err: error }, 'chat message refused: the database is unavailable');
            refuse(socket, 'UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE);
            return;
          }
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
      // The seller in their own room is not a viewer: no view, and not in the viewer count.
      const isSeller = request.user?.id === stream.owner_id;
      if (!isSeller) await countView(db, stream.id, viewerKey(request));
      await hub.join(stream.room_name, socket, { counted: !isSeller });
      socket.once('close', () => void hub.leave(stream.room_name, socket));
      // Read again now that the socket hears the room: a start or an end published while it was
      // joining went out before it listened, and is only in the stream's state.
      const current = (await findStreamByRoom(db, stream.room_name)) ?? stream;
      send(socket, { type: 'chat_history', messages: await roomHistory(db, writer, current.id) });
      if (current.is_active && current.ends_at)
        send(socket, { type: 'stream_started', endsAt: iso(current.ends_at) });
      if (current.ended_at) send(socket, { type: 'stream_ended' });
      return current;
    })().catch((error) => {
      if (isDatabaseUnavailable(error)) {
        // 1013 Try Again Later: the client reconnects with its backoff.
        request.log.warn({ err: error }, 'joining a room failed: the database is unavailable');
        socket.close(1013, 'Database unavailable');
        return undefined;
      }
      request.log.error({ err: error }, 'joining a room failed');
      socket.close(1011, 'Server error');
      return undefined;
    });
  });
};
