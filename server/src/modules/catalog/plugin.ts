import { modulePlugin } from '../../platform/module-plugin.ts';
import { imageUploadRoutes } from './image-upload.ts';
import { catalogRoutes } from './routes.ts';

/** Products, explore and search, and uploaded images. */
export const catalogPlugin = modulePlugin('catalog', async (app, p) => {
  await app.register(catalogRoutes, { db: p.db, publicUrl: p.config.publicUrl });
  await app.register(imageUploadRoutes, { db: p.db, storage: p.storage, limiter: p.limiter });
});
