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
  const { crossSite, liveStream, roomOf } = socketChecks(db, publicUrl);

  function endedFor(socket: WebSocket) {
    socket.send(JSON.stringify({ type: 'stream_ended' }));
    socket.close(1000, 'The stream has ended');
  }

  /**
   * A viewer's video: init segment, then media from the latest keyframe on. A room this instance
   * relays live starts at once, and the database confirms the stream after (a late joiner's first
   * frame does not wait behind the page's own queries); any other room is looked up first.
   */
  app.get('/ws/media', { websocket: true }, (socket, request) => {
    void (async () => {
      if (crossSite(request)) return socket.close(CloseCode.forbidden, 'Cross-site WebSocket refused');
      const relayed = roomOf(request);
      const startedEarly = relayed !== undefined && media.relaying(relayed);
      if (startedEarly) await join(socket, relayed);
      const stream = await liveStream(request);
      if (!stream) return socket.close(CloseCode.notFound, 'No such room');
      if (!startedEarly) {
        if (stream.ended_at) return endedFor(socket);
        await join(socket, stream.room_name);
      }
      // Ended while this viewer joined (or, started early, before): the end's message may have
      // gone out before this instance listened. The viewer is told, and the room is finished here
      // as the message would have.
      const ended = startedEarly ? stream.ended_at : (await liveStream(request))?.ended_at;
      if (ended) {
        endedFor(socket);
        await media.finish(stream.room_name);
      }
    })().catch((error) => {
      request.log.error({ err: error }, 'media viewer failed');
      socket.close(1011, 'Server error');
    });
  });

  async function join(socket: WebSocket, roomName: string) {
    socket.once('close', () => media.removeViewer(roomName, socket));
    await media.addViewer(roomName, socket);
  }
};
