import { modulePlugin } from '../../platform/module-plugin.ts';
import { PUBLISHER_HEARTBEAT_MS } from '../media/service.ts';
import { startAutoEnd } from './auto-end.ts';
import { streamRoutes } from './routes.ts';
import { announceStreamsEnded } from './service.ts';
import { startViewerSampling } from './viewer-samples.ts';

/** Rooms (streams): create, start, end, stats; the auto-end job and the viewer samples. */
export const streamsPlugin = modulePlugin('streams', async (app, p) => {
  await app.register(streamRoutes, {
    db: p.db,
    hub: p.hub,
    restreamAllowedHosts: p.config.restreamAllowedHosts,
  });
  const stopAutoEnd =
    p.options.autoEnd === false
      ? () => {}
      : startAutoEnd(p.db, p.hub, p.log, {
          publisherGraceMs: p.options.publisherGraceMs,
          publisherHeartbeatMs: PUBLISHER_HEARTBEAT_MS,
          // Media makes their replays (onStreamsEnded), on whichever instance hears it first.
          onEnded: (roomNames) =>
            void announceStreamsEnded(p.bus, roomNames).catch((error) =>
              p.log.warn({ err: error }, 'announcing ended streams failed; the replay sweep makes them'),
            ),
        });
  const stopViewerSampling =
    p.options.viewerSampling === false ? () => {} : startViewerSampling(p.db, p.hub, p.log);
  app.addHook('onClose', async () => {
    stopAutoEnd();
    stopViewerSampling();
  });
});
