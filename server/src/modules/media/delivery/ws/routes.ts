import { CloseCode } from '@streamshop/contract/live.ts';
import type { FastifyPluginAsync } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../../../../db/client.ts';
import type { MediaService } from '../../service.ts';
import { socketChecks } from '../../socket-checks.ts';

/** The viewers' WebSocket: the room's live fMP4 from this instance's relay (relay.ts). */
export const viewerRoutes: FastifyPluginAsync<{
  db: Db;
  media: MediaService;
  publicUrl: string;
}> = async (app, { db, media, publicUrl }) => {
  const { crossSite, liveStream } = socketChecks(db, publicUrl);

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
