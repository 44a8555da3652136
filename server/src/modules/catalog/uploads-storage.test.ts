import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Server, startS3Server } from '../../test/s3-server.ts';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';

/** Uploaded images kept in S3: any instance serves what another stored. */

let s3: S3Server;
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  s3 = await startS3Server();
  // Two instances with their own DATA_DIR; only the database and the bucket are shared.
  first = await buildTestApp({ s3: s3.settings });
  second = await buildTestApp({ s3: s3.settings }, { database: first.database });
}, 60_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
  await s3?.stop();
});

async function uploadPng(t: TestApp, cookie: string) {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#22c55e' } })
    .png()
    .toBuffer();
  const boundary = '----streamshop-upload';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads/product-image',
    payload: Buffer.concat([head, png, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie },
  });
}

describe('uploaded images in S3', () => {
  it('are served by another instance, cached for good, and not written to the local disk', async () => {
    const { cookie } = await signUp(first.app);
    const uploaded = await uploadPng(first, cookie);
    expect(uploaded.statusCode).toBe(201);
    const url: string = uploaded.json().url;
    expect(url).toMatch(/^\/media\/uploads\/[0-9a-f-]{36}\.webp$/);
    expect(existsSync(path.join(first.config.dataDir, 'media', 'uploads'))).toBe(false);

    const served = await second.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const image = await sharp(served.rawPayload).metadata();
    expect([image.format, image.width, image.height]).toEqual(['webp', 64, 48]);
  });

  it('answers 404 for an unknown or malformed image name', async () => {
    for (const name of [`${randomUUID()}.webp`, 'not-an-upload.webp', `${randomUUID()}.png`]) {
      const response = await second.app.inject({ method: 'GET', url: `/media/uploads/${name}` });
      expect(response.statusCode, name).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
  });
});
