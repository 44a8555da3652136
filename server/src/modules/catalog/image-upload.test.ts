import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';

/** The upload decodes only what the content is, not what the client says it is. */

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = (await signUp(t.app)).cookie;
});
afterAll(() => t.close());

function upload(filename: string, declaredType: string, content: Buffer) {
  const boundary = '----streamshop-upload';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${filename}"\r\nContent-Type: ${declaredType}\r\n\r\n`,
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads/product-image',
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie },
  });
}

const storedUploads = () => {
  const dir = path.join(t.config.dataDir, 'media', 'uploads');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

const picture = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#22c55e' } });
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="64" height="48"/></svg>';

describe('POST /api/uploads/product-image by detected format', () => {
  it.each([
    ['an SVG declared as image/png', 'cover.png', 'image/png', async () => Buffer.from(SVG), 'SVG'],
    [
      'an SVG with an XML declaration declared as image/webp',
      'cover.webp',
      'image/webp',
      async () => Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${SVG}`),
      'SVG',
    ],
    ['a TIFF declared as image/jpeg', 'cover.jpg', 'image/jpeg', () => picture().tiff().toBuffer(), 'TIFF'],
    [
      'an AVIF (HEIF) declared as image/png',
      'cover.png',
      'image/png',
      () => picture().avif().toBuffer(),
      'HEIF',
    ],
    ['a GIF declared as image/webp', 'cover.webp', 'image/webp', () => picture().gif().toBuffer(), 'GIF'],
  ])(
    'refuses %s with 415 naming the format, storing nothing',
    async (_case, filename, type, content, format) => {
      const before = storedUploads();
      const response = await upload(filename, type, await content());
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({
        message: `Unsupported image: the file is ${format}; upload a JPEG, PNG or WebP image`,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        fields: { image: `must be JPEG, PNG or WebP, not ${format}` },
      });
      expect(storedUploads()).toBe(before);
    },
  );

  it('refuses a PNG signature followed by something else with 400', async () => {
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from(SVG),
    ]);
    const response = await upload('cover.png', 'image/png', fake);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ image: 'is not a readable JPEG, PNG or WebP image' });
  });

  it.each([
    ['PNG', 'image/png', () => picture().png().toBuffer()],
    ['JPEG', 'image/jpeg', () => picture().jpeg().toBuffer()],
    ['WebP', 'image/webp', () => picture().webp().toBuffer()],
    ['JPEG declared as image/png', 'image/png', () => picture().jpeg().toBuffer()],
  ])('takes a real %s and stores it as WebP', async (_case, type, content) => {
    const response = await upload('cover', type, await content());
    expect(response.statusCode).toBe(201);
    const served = await t.app.inject({ url: response.json().url });
    expect(served.statusCode).toBe(200);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 64,
      height: 48,
    });
  });
});
