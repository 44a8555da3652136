import { CloseCode, MEDIA_MIME_TYPES } from '@streamshop/contract/live.ts';
import { ROOM_NAME_PATTERN } from '@streamshop/contract/room-name.ts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { sameOrigin } from '../../platform/origin-check.ts';
import type { SessionSockets } from '../../platform/session-sockets.ts';
import type { Storage } from '../../platform/storage.ts';
import { findStreamByRoom } from '../streams/service.ts';
import { Fmp4Error } from './fmp4.ts';
import { hlsKey, storedPlaylistText } from './hls-recorder.ts';
import type { MediaService } from './service.ts';
import { WebmError } from './webm.ts';

/** A stream's HLS file names: playlists, init segments, segments and thumbnails. */
const HLS_FILE = /^[a-z0-9-]{1,80}\.(m3u8|mp4|m4s|jpg)$/;
const HLS_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  mp4: 'video/mp4',
  m4s: 'video/iso.segment',
  jpg: 'image/jpeg',
};

const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;

export const mediaRoutes: FastifyPluginAsync<{
  db: Db;
  media: MediaService;
  storage: Storage;
  publicUrl: string;
  sessionSockets: SessionSockets;
}> = async (app, { db, media, storage, publicUrl, sessionSockets }) => {
  const publicOrigin = new URL(publicUrl).origin;
  const publishers = new Map<string, WebSocket>();

  function crossSite(request: FastifyRequest) {
    const origin = request.headers.origin;
    return origin !== undefined && !sameOrigin(request, origin, publicOrigin);
  }

  async function liveStream(request: FastifyRequest) {
    const room = queryOf(request).room;
    if (typeof room !== 'string' || !ROOM_NAME_PATTERN.test(room)) return undefined;
    return findStreamByRoom(db, room);
  }

  /**
   * A stream's HLS files, from storage (so every instance serves every stream). Playlists change
   * while live and are cached for a second at most; everything else never changes once written,
   * so a CDN in front may keep it for good.
   */
  app.get<{ Params: { room: string; file: string } }>('/media/hls/:room/:file', async (request, reply) => {
    const { room, file } = request.params;
    const extension = HLS_FILE.exec(file)?.[1];
    if (!extension || !ROOM_NAME_PATTERN.test(room)) throw notFound('No such media file');
    reply.header('x-content-type-options', 'nosniff').type(HLS_TYPES[extension] as string);
    if (extension === 'm3u8') {
      // Replaced every second while live: read whole, so a viewer never gets one cut short.
      const playlist = await storedPlaylistText(storage, hlsKey(room, file));
      if (!playlist) throw notFound('No such media file');
      return reply.header('cache-control', 'public, max-age=0, s-maxage=1, must-revalidate').send(playlist);
    }
    const object = await storage.get(hlsKey(room, file));
    if (!object) throw notFound('No such media file');
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-length', object.size)
      .send(object.body);
  });

  /** The broadcaster's MediaRecorder bytes. Only the owner, only while the stream is live. */
  app.get('/ws/publish', { websocket: true }, (socket, request) => {
    const chunks: Buffer[] = [];
    let accept: ((chunk: Buffer) => void) | undefined;
    socket.on('message', (data, isBinary) => {
      if (!isBinary) return;
      const chunk = data as Buffer;
      if (accept) accept(chunk);
      else chunks.push(chunk);
    });

    void (async () => {
      if (crossSite(request)) return socket.close(CloseCode.forbidden, 'Cross-site WebSocket refused');
      const stream = await liveStream(request);
      if (!stream) return socket.close(CloseCode.notFound, 'No such room');
      if (!request.user || request.user.id !== stream.owner_id) {
        return socket.close(CloseCode.forbidden, 'Only the stream’s owner can publish');
      }
      if (!stream.is_active || stream.ended_at)
        return socket.close(CloseCode.notLive, 'The stream is not live');
      // Publishing stops when the owner signs out.
      sessionSockets.track(request.sessionIdHash, socket);
      const requested = queryOf(request).mimeType;
      const mimeType = (MEDIA_MIME_TYPES as readonly string[]).includes(String(requested))
        ? String(requested)
        : MEDIA_MIME_TYPES[0];

      const previous = publishers.get(stream.room_name);
      previous?.close(CloseCode.replaced, 'Another connection took over publishing');
      publishers.set(stream.room_name, socket);
      await media.startPublishing(stream.room_name, mimeType, (reason) => {
        // The pipeline gave up on what this publisher sends: say why, and let go.
        if (publishers.get(stream.room_name) !== socket) return;
        socket.send(JSON.stringify({ type: 'error', message: reason }));
        socket.close(CloseCode.badData, 'Unreadable video');
      });

      accept = (chunk) => {
        try {
          media.pushFromPublisher(stream.room_name, chunk);
        } catch (error) {
          if (!(error instanceof WebmError || error instanceof Fmp4Error)) throw error;
          socket.send(JSON.stringify({ type: 'error', message: 'The server could not read this video.' }));
          socket.close(CloseCode.badData, 'Not a video stream');
        }
      };
      for (const chunk of chunks.splice(0)) accept(chunk);
      socket.once('close', () => {
        if (publishers.get(stream.room_name) !== socket) return;
        publishers.delete(stream.room_name);
        void media.stopPublishing(stream.room_name);
      });
      socket.send(JSON.stringify({ type: 'publish_ready' }));
    })().catch((error) => {
      request.log.error({ err: error }, 'publish failed');
      socket.close(1011, 'Server error');
    });
  });

  function endedFor(socket: WebSocket) {
    socket.send(JSON.stringify({ type: 'stream_ended' }));
    socket.close(1000, 'The stream has ended');
  }

  /** A viewer's video: init segment, then media from the latest keyframe on. */
  app.get('/ws/media', { websocket: true }, (socket, request) => {
    void (async () => {
      if (crossSite(request)) return socket.close(CloseCode.forbidden, 'Cross-site WebSocket refused');
      const stream = await liveStream(request);
      if (!stream) return socket.close(CloseCode.notFound, 'No such room');
      if (stream.ended_at) return endedFor(socket);
      socket.once('close', () => media.removeViewer(stream.room_name, socket));
      await media.addViewer(stream.room_name, socket);
      // Ended while this viewer joined: the end's message may have gone out before this instance
      // listened. The viewer is told, and the room is finished here as the message would have.
      if ((await liveStream(request))?.ended_at) {
        endedFor(socket);
        await media.finish(stream.room_name);
      }
    })().catch((error) => {
      request.log.error({ err: error }, 'media viewer failed');
      socket.close(1011, 'Server error');
    });
  });
};
