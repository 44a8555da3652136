import { CloseCode, MEDIA_MIME_TYPES } from '@streamshop/contract/live.ts';
import type { FastifyPluginAsync } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../../../../db/client.ts';
import type { SessionSockets } from '../../../../platform/session-sockets.ts';
import { Fmp4Error } from '../../containers/fmp4.ts';
import { WebmError } from '../../containers/webm.ts';
import type { MediaService } from '../../service.ts';
import { queryOf, socketChecks } from '../../socket-checks.ts';

/**
 * The browser's publish: MediaRecorder's WebM, or Safari's fragmented MP4, over a WebSocket into
 * the room's pipeline (MediaService.startPublishing). A newer connection of the owner takes over.
 */
export const publishRoutes: FastifyPluginAsync<{
  db: Db;
  media: MediaService;
  publicUrl: string;
  sessionSockets: SessionSockets;
}> = async (app, { db, media, publicUrl, sessionSockets }) => {
  const { crossSite, liveStream } = socketChecks(db, publicUrl);
  const publishers = new Map<string, WebSocket>();

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
};
