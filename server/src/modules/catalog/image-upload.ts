import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  IMAGE_UPLOAD_TYPES,
  imageUploadResponseSchema,
  MAX_IMAGE_UPLOAD_BYTES,
} from '@streamshop/contract/catalog.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { AppError, badRequest, tooManyRequests } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';

/** Longest side of a stored product image; larger uploads are scaled down. */
const MAX_SIDE = 1200;
const UPLOADS_PER_HOUR = 60;

/** Decodes, strips metadata, scales and re-encodes to WebP; anything sharp cannot read is refused. */
async function reencode(input: Buffer): Promise<Buffer> {
  try {
    return await sharp(input, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw badRequest('Invalid image: the file is not a readable JPEG, PNG or WebP image', {
      image: 'is not a readable JPEG, PNG or WebP image',
    });
  }
}

export const imageUploadRoutes: FastifyPluginAsyncZod<{ mediaDir: string; limiter: RateLimiter }> = async (
  app,
  { mediaDir, limiter },
) => {
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_IMAGE_UPLOAD_BYTES, files: 1, fields: 5 } });
  const uploadsDir = path.join(mediaDir, 'uploads');

  app.post(
    '/api/uploads/product-image',
    {
      config: SIGNED_IN,
      schema: {
        response: {
          201: imageUploadResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          413: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const allowance = await limiter.hit(`upload:${user.id}`, UPLOADS_PER_HOUR, 3600);
      if (!allowance.allowed) throw tooManyRequests(allowance.retryAfterSec);
      if (!request.isMultipart()) {
        throw badRequest('Invalid image: send multipart/form-data with a field named image', {
          image: 'is required',
        });
      }
      const file = await request.file();
      if (file?.fieldname !== 'image')
        throw badRequest('Invalid image: is required', { image: 'is required' });
      if (!(IMAGE_UPLOAD_TYPES as readonly string[]).includes(file.mimetype)) {
        throw badRequest('Invalid image: must be a JPEG, PNG or WebP image', {
          image: 'must be JPEG, PNG or WebP',
        });
      }
      let raw: Buffer;
      try {
        raw = await file.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'Image is larger than 5 MB', {
            image: 'must be at most 5 MB',
          });
        }
        throw error;
      }
      const webp = await reencode(raw);
      await mkdir(uploadsDir, { recursive: true });
      const name = `${randomUUID()}.webp`;
      await writeFile(path.join(uploadsDir, name), webp);
      return reply.status(201).send({ url: `/media/uploads/${name}` });
    },
  );
};
