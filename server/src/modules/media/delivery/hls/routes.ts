import { ROOM_NAME_PATTERN } from '@streamshop/contract/room-name.ts';
import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../../../platform/errors.ts';
import type { Storage } from '../../../../platform/storage.ts';
import { hlsKey, storedPlaylistText } from '../../pipeline/hls-recorder.ts';

/** A stream's HLS file names: playlists, init segments, segments and thumbnails. */
const HLS_FILE = /^[a-z0-9-]{1,80}\.(m3u8|mp4|m4s|jpg)$/;
const HLS_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  mp4: 'video/mp4',
  m4s: 'video/iso.segment',
  jpg: 'image/jpeg',
};

export const hlsRoutes: FastifyPluginAsync<{ storage: Storage }> = async (app, { storage }) => {
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
};
