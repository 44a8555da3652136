import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { setTimeout as delay } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

/**
 * Where media files live (uploaded product images; later live segments, replays and thumbnails):
 * a directory on this machine (the default) or an S3-compatible bucket, so that every instance
 * serves every media URL. Keys are slash-separated paths such as `uploads/<uuid>.webp`.
 */
export interface Storage {
  /** Stores the bytes under the key, replacing what was there. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or undefined when there is none. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /** Removes every object named (S3: up to 1,000 in one request); missing ones are no error. */
  deleteMany(keys: string[]): Promise<void>;
  /** Every key that starts with the prefix, in no particular order. */
  list(prefix: string): Promise<string[]>;
  /** Where the objects are, for logs: a directory or s3://bucket. */
  readonly location: string;
}

export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string | undefined;
}

/**
 * Storage did not answer, or broke off in the middle of an object (a network fault, S3 away, a
 * store that replaces objects in place): not the request's fault, so its answer is 503 and
 * "try again", never a 500.
 */
export class StorageUnavailableError extends Error {
  constructor(
    readonly key: string,
    cause: unknown,
  ) {
    super(`storage could not read ${key}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** Reads of a whole object are tried this many times, the waits between them growing by this. */
const READ_ATTEMPTS = 5;
const READ_RETRY_STEP_MS = 20;

/**
 * An object's bytes, read whole, or undefined when there is none. A read whose body breaks off,
 * comes back shorter than the object's size or is not `whole` (a playlist cut off mid-line) is
 * tried again: an object being replaced can be read half-written on some S3-compatible stores.
 * A storage that does not answer at all is not asked again here (its client has retried). For
 * small objects that change (playlists); immutable ones are streamed with `get`.
 */
export async function readObject(
  storage: Storage,
  key: string,
  whole: (bytes: Buffer) => boolean = () => true,
): Promise<Buffer | undefined> {
  assertKey(key);
  let failure: unknown;
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    if (attempt > 0) await delay(READ_RETRY_STEP_MS * attempt);
    const object = await storage.get(key);
    if (!object) return undefined;
    try {
      const bytes = await buffer(object.body);
      if (bytes.length === object.size && whole(bytes)) return bytes;
      failure = new Error(`read ${bytes.length} of ${object.size} bytes, or an unfinished object`);
    } catch (error) {
      failure = error;
    }
  }
  throw failure instanceof StorageUnavailableError ? failure : new StorageUnavailableError(key, failure);
}

/**
 * The body handed on, its failures as StorageUnavailableError; a consumer that stops early (a
 * viewer who went away) releases the source, and with it the connection to S3. A failure before
 * the consumer listens does not bring the process down: the consumer sees the body destroyed.
 */
function guardedBody(key: string, source: Readable): Readable {
  const body = new PassThrough();
  source.on('error', (error) => body.destroy(new StorageUnavailableError(key, error)));
  body.on('error', () => {});
  body.once('close', () => source.destroy());
  source.pipe(body);
  return body;
}

/** A key is relative, slash-separated, without empty, `.` or `..` parts. */
export function isValidKey(key: string): boolean {
  return (
    key.length > 0 &&
    key.length <= 512 &&
    key.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && !part.includes('\\'))
  );
}

function assertKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
}

const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
};

/** A directory: each key is a file below it. Writes go to a temporary name first. */
export function directoryStorage(root: string): Storage {
  const fileOf = (key: string) => {
    assertKey(key);
    return path.join(root, ...key.split('/'));
  };
  return {
    location: root,
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.${randomUUID()}.partial`;
      await writeFile(partial, body);
      await rename(partial, file);
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const info = await stat(file);
        if (!info.isFile()) return undefined;
        return {
          body: guardedBody(key, createReadStream(file)),
          size: info.size,
          contentType: CONTENT_TYPES[path.extname(file).toLowerCase()],
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async deleteMany(keys) {
      const files = keys.map(fileOf);
      for (const file of files) await rm(file, { force: true });
    },
    async list(prefix) {
      const base = path.join(root, ...prefix.split('/').slice(0, -1));
      const found: string[] = [];
      const walk = async (dir: string) => {
        let entries: import('node:fs').Dirent[];
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw error;
        }
        for (const entry of entries) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) await walk(full);
          else if (!entry.name.endsWith('.partial')) {
            const key = path.relative(root, full).split(path.sep).join('/');
            if (key.startsWith(prefix)) found.push(key);
          }
        }
      };
      await walk(base);
      return found;
    },
  };
}

export interface S3Settings {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, R2, Spaces…); absent for AWS itself. */
  endpoint: string | undefined;
  /** Absent: the SDK's own chain (environment, instance role…). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** How long a connection may take to open, and a request may wait on a silent socket (tests shorten them). */
  timeouts?: { connectMs: number; idleMs: number };
}

/**
 * An S3 that accepts connections and then says nothing must not hold a viewer's request or the
 * recorder forever: a connection opens within 3 s, and a socket silent for 15 s is given up (the
 * SDK's own retries, three attempts, then end in StorageUnavailableError: 503 to a viewer).
 */
const S3_TIMEOUTS = { connectMs: 3_000, idleMs: 15_000 };
/** DeleteObjects takes at most this many keys in one request. */
const S3_DELETE_BATCH = 1000;

/** An S3 bucket (or an S3-compatible service), through the official AWS SDK. */
export function s3Storage(settings: S3Settings): Storage {
  const timeouts = settings.timeouts ?? S3_TIMEOUTS;
  const client = new S3Client({
    region: settings.region,
    requestHandler: {
      connectionTimeout: timeouts.connectMs,
      // Until the answer's headers, and any silence on the socket after (a segment's body too).
      requestTimeout: timeouts.idleMs,
      throwOnRequestTimeout: true,
      socketTimeout: timeouts.idleMs,
    },
    endpoint: settings.endpoint,
    // Path-style URLs work with every S3-compatible service; AWS still accepts them.
    forcePathStyle: Boolean(settings.endpoint),
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // Checksums only where S3 requires them: many S3-compatible services do not take the
    // streaming checksum trailers the SDK would otherwise add to every upload.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  if (settings.endpoint) {
    // Bucket-level requests (listing) go out path-style as `/bucket/`; some S3-compatible servers
    // sign `/bucket` instead and refuse the signature. Both forms mean the same bucket.
    const bucketPath = `/${Bucket}/`;
    client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { path?: string };
        if (request.path === bucketPath) request.path = `/${Bucket}`;
        return next(args);
      },
      { step: 'build', name: 'bucketPathWithoutSlash' },
    );
  }
  return {
    location: `s3://${Bucket}`,
    async put(key, body, contentType) {
      assertKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async get(key) {
      assertKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!(object.Body instanceof Readable)) throw new Error('the S3 response has no body stream');
        return {
          body: guardedBody(key, object.Body),
          size: object.ContentLength ?? 0,
          contentType: object.ContentType,
        };
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw new StorageUnavailableError(key, error);
      }
    },
    async delete(key) {
      assertKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async deleteMany(keys) {
      for (const key of keys) assertKey(key);
      for (let start = 0; start < keys.length; start += S3_DELETE_BATCH) {
        const Objects = keys.slice(start, start + S3_DELETE_BATCH).map((Key) => ({ Key }));
        const answer = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }),
        );
        const failed = answer.Errors ?? [];
        if (failed.length > 0) {
          const first = failed[0];
          throw new Error(
            `S3 did not delete ${failed.length} of ${Objects.length} objects (first: ${first?.Key}: ${first?.Code} ${first?.Message})`,
          );
        }
      }
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
  };
}
