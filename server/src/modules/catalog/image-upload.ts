import { randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import {
  IMAGE_UPLOAD_TYPES,
  imageUploadResponseSchema,
  MAX_IMAGE_UPLOAD_BYTES,
} from '@streamshop/contract/catalog.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import type { Db } from '../../db/client.ts';
import { AppError, badRequest, notFound, tooManyRequests } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import type { Storage } from '../../platform/storage.ts';
import { forgetUpload, recordUpload } from './uploads-repo.ts';

/** Longest side of a stored product image; larger uploads are scaled down. */
const MAX_SIDE = 1200;
const UPLOADS_PER_HOUR = 60;

const NOT_READABLE = 'is not a readable JPEG, PNG or WebP image';
const notReadable = () => badRequest(`Invalid image: the file ${NOT_READABLE}`, { image: NOT_READABLE });

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The formats taken, by sharp's name, and how a file of each begins. */
const ACCEPTED = {
  jpeg: (head: Buffer) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff,
  png: (head: Buffer) => head.subarray(0, 8).equals(PNG_SIGNATURE),
  webp: (head: Buffer) =>
    head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP',
};
type AcceptedFormat = keyof typeof ACCEPTED;

/**
 * Formats sharp (libvips) would decode as readily, whatever type the client declared: SVG (an
 * XML parser and renderer), TIFF, HEIF and more. Recognised only to say what was sent.
 */
const REFUSED: [name: string, matches: (head: Buffer) => boolean][] = [
  ['SVG', (head) => /^\uFEFF?\s*<(\?xml|svg|!--|!doctype svg)/i.test(head.toString('utf8', 0, 256))],
  ['TIFF', (head) => ['II*\0', 'MM\0*'].includes(head.toString('latin1', 0, 4))],
  // ISO base media files (HEIC, AVIF) open with a 'ftyp' box.
  ['HEIF', (head) => head.toString('latin1', 4, 8) === 'ftyp'],
  ['GIF', (head) => /^GIF8[79]a/.test(head.toString('latin1', 0, 6))],
  ['BMP', (head) => head.toString('latin1', 0, 2) === 'BM'],
  ['PDF', (head) => head.toString('latin1', 0, 5) === '%PDF-'],
];

/**
 * The format of the content, by its first bytes and then by sharp's own reading: only JPEG, PNG
 * and WebP get as far as a decoder. Another known format is 415, anything else 400.
 */
async function detectFormat(input: Buffer): Promise<AcceptedFormat> {
  const format = (Object.keys(ACCEPTED) as AcceptedFormat[]).find((name) => ACCEPTED[name](input));
  if (!format) {
    const refused = REFUSED.find(([, matches]) => matches(input))?.[0];
    if (!refused) throw notReadable();
    throw new AppError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `Unsupported image: the file is ${refused}; upload a JPEG, PNG or WebP image`,
      { image: `must be JPEG, PNG or WebP, not ${refused}` },
    );
  }
  // libvips chooses its decoder by its own sniffing: it has to agree.
  const read = await sharp(input)
    .metadata()
    .then((metadata) => metadata.format)
    .catch(() => undefined);
  if (read !== format) throw notReadable();
  return format;
}

/** Decodes, strips metadata, scales and re-encodes to WebP; anything sharp cannot read is refused. */
async function reencode(input: Buffer): Promise<Buffer> {
  try {
    return await sharp(input, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw notReadable();
  }
}

/** An uploaded image's name: a random UUID, so its bytes never change (cached for a year). */
const UPLOAD_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

/**
 * The storage key of the uploaded image a URL names: `/media/uploads/<name>`, or the same path on
 * the site's own origin (`publicUrl`), in any letter case; undefined for other URLs (the demo's
 * drawings, an image elsewhere).
 */
export function uploadKeyOf(url: string | null | undefined, publicUrl: string): string | undefined {
  if (!url) return undefined;
  let path = url;
  if (!url.startsWith('/')) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (parsed.origin !== new URL(publicUrl).origin || parsed.search || parsed.hash) return undefined;
    path = parsed.pathname;
  }
  const name = path.toLowerCase().startsWith('/media/uploads/')
    ? path.slice('/media/uploads/'.length).toLowerCase()
    : undefined;
  return name && UPLOAD_NAME.test(name) ? `uploads/${name}` : undefined;
}

export const imageUploadRoutes: FastifyPluginAsyncZod<{
  db: Db;
  storage: Storage;
  limiter: RateLimiter;
}> = async (app, { db, storage, limiter }) => {
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_IMAGE_UPLOAD_BYTES, files: 1, fields: 5 } });

  // Served from the storage, so every instance serves every upload (local directory or S3).
  app.get<{ Params: { name: string } }>('/media/uploads/:name', async (request, reply) => {
    const { name } = request.params;
    const object = UPLOAD_NAME.test(name) ? await storage.get(`uploads/${name}`) : undefined;
    if (!object) throw notFound('No such image');
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-length', object.size)
      .type('image/webp')
      .send(object.body);
  });

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
          415: errorBodySchema,
          429: errorBodySchema,
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
      await detectFormat(raw);
      const webp = await reencode(raw);
      const name = `${randomUUID()}.webp`;
      // The owner is recorded first, so no stored upload is without one: only the owner may use
      // it, and deleting the owner's account removes it.
      await recordUpload(db, `uploads/${name}`, user.id);
      try {
        await storage.put(`uploads/${name}`, webp, 'image/webp');
      } catch (error) {
        await forgetUpload(db, `uploads/${name}`).catch(() => {});
        throw error;
      }
      return reply.status(201).send({ url: `/media/uploads/${name}` });
    },
  );
};
