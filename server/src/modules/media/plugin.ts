import path from 'node:path';
import { modulePlugin } from '../../platform/module-plugin.ts';
import { onStreamsEnded } from '../streams/service.ts';
import { LiveEdges } from './delivery/hls/edges.ts';
import { hlsRoutes } from './delivery/hls/routes.ts';
import { viewerRoutes } from './delivery/ws/routes.ts';
import { publishRoutes } from './ingest/browser/routes.ts';
import { dropEncoderEverywhere, startEncoderIngest } from './ingest/rtmp/encoder-ingest.ts';
import { keyRoutes } from './keys/routes.ts';
import { MediaService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaService;
  }
}

/**
 * Live video, in the stages a stream goes through: ingest (the browser's WebSocket publish,
 * ingest/browser; encoders over RTMP, ingest/rtmp, with their stream keys, keys/), the pipeline
 * (ffmpeg and the HLS recorder, pipeline/), delivery (the WebSocket relay, delivery/ws; HLS files
 * from storage, delivery/hls), replays and restreams. Decorates `app.media` (main.ts starts the
 * demo room and replay with it).
 */
export const mediaPlugin = modulePlugin('media', async (app, p) => {
  const edges = new LiveEdges(p.bus, p.storage, p.log);
  const media = new MediaService(
    p.db,
    p.bus,
    p.storage,
    path.join(p.config.dataDir, 'live'),
    p.log,
    p.config.restreamAllowedHosts,
    edges,
  );
  app.decorate('media', media);
  await app.register(hlsRoutes, { storage: p.storage, edges });
  await app.register(publishRoutes, {
    db: p.db,
    media,
    publicUrl: p.config.publicUrl,
    sessionSockets: p.sessionSockets,
  });
  await app.register(viewerRoutes, { db: p.db, media, publicUrl: p.config.publicUrl });
  media.startSweeps(p.options.replaySweepMs);
  // Streams ended by auto-end (on any instance) get their replays now rather than at the next sweep.
  const stopHearingEnds = await onStreamsEnded(p.bus, (roomNames) => media.makeReplays(roomNames));
  const encoders = await startEncoderIngest({
    db: p.db,
    bus: p.bus,
    media,
    log: p.log,
    announce: (roomName, message) => p.hub.publish(roomName, message),
    port: p.config.rtmpPort,
    host: p.config.host,
    connectionsPerAddress: p.config.rtmpConnectionsPerAddress,
  });
  if (encoders) app.drain.onStopAccepting(() => encoders.stopAccepting());
  await app.register(keyRoutes, {
    db: p.db,
    rtmpUrl: p.config.rtmpUrl,
    secret: p.config.sessionSecret,
    rtmpOn: encoders !== undefined,
    dropEncoder: (roomName) => dropEncoderEverywhere(p.bus, roomName),
  });
  app.addHook('onClose', async () => {
    await stopHearingEnds();
    await encoders?.close();
    await media.close();
    await edges.close();
  });
});
