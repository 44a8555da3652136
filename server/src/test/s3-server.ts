import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { S3Settings } from '../platform/storage.ts';
import { freePort } from './ports.ts';

const require = createRequire(import.meta.url);
/** s3rver's command line (the package ships it as lib/cli.js, a commander program). */
const CLI = require.resolve('@20minutes/s3rver/lib/cli.js');
const STORE = require.resolve('@20minutes/s3rver/lib/stores/filesystem.js');
const OBJECT = require.resolve('@20minutes/s3rver/lib/models/object.js');

/**
 * s3rver writes an object in place (truncate, then write) and answers the PUT before the bytes
 * are down, so a GET during a replace reads a cut or empty object: no real S3 does that (AWS S3 and
 * MinIO replace atomically). The child's store writes each object to a temporary file and renames
 * it over the old one once written, so a reader gets the old object or the new one, whole. Its GET
 * also read the length from the metadata file first and the bytes after, so a replace between the
 * two cut the new bytes to the old length: a GET now reads the bytes once and takes their length.
 * Its metadata files (content type, MD5) were written in place too, and a GET that read one
 * half-written failed on its JSON (500, then 503 to a viewer once the client's retries ran out):
 * they are written whole and renamed into place the same way.
 */
const ATOMIC_PUT = `
const fsp = require('node:fs/promises');
const crypto = require('node:crypto');
const Store = require(${JSON.stringify(STORE)});
const S3Object = require(${JSON.stringify(OBJECT)});
const { Readable } = require('node:stream');
let next = 0;
Store.prototype.getObject = async function (bucket, key, options) {
  let body;
  try {
    body = await fsp.readFile(this.getResourcePath(bucket, key, 'object'));
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
  const metadata = { ...(await this.getMetadata(bucket, key)), 'content-length': String(body.length) };
  const lastByte = Math.max(0, body.length - 1);
  const ranged = options && (options.start !== undefined || options.end);
  const range = { start: (options && options.start) || 0, end: Math.min((options && options.end) || Infinity, lastByte) };
  const satisfiable = range.start >= 0 && range.end >= range.start;
  const object = new S3Object(bucket, key, satisfiable ? Readable.from([body.subarray(range.start, range.end + 1)]) : null, metadata);
  if (ranged) object.range = range;
  return object;
};
async function writeWhole(file, data) {
  const temporary = file + '.' + process.pid + '.' + next++ + '.partial';
  await fsp.writeFile(temporary, data);
  await fsp.rename(temporary, file);
}
Store.prototype.putContent = async function (objectPath, content) {
  const chunks = [];
  if (Buffer.isBuffer(content)) chunks.push(content);
  else for await (const chunk of content) chunks.push(Buffer.from(chunk));
  const body = Buffer.concat(chunks);
  await writeWhole(objectPath, body);
  return [body.length, crypto.createHash('md5').update(body).digest('hex')];
};
Store.prototype.putMetadata = async function (bucket, key, metadata, md5) {
  const json = {};
  for (const [name, value] of Object.entries(metadata)) {
    if (S3Object.ALLOWED_METADATA.includes(name) || name.startsWith('x-amz-meta-')) json[name] = value;
  }
  if (md5) await writeWhole(this.getResourcePath(bucket, key, 'object.md5'), md5);
  await writeWhole(this.getResourcePath(bucket, key, 'metadata.json'), JSON.stringify(json, null, 2));
};
`;

export interface S3Server {
  /** Settings for a bucket that exists on this server. */
  settings: S3Settings;
  stop(): Promise<void>;
}

/**
 * An S3 API server (s3rver: HTTP, SigV4-checked requests, objects on disk) in a child process on
 * 127.0.0.1, with one bucket. Its access key pair is S3RVER / S3RVER.
 */
export async function startS3Server(bucket = 'streamshop-test'): Promise<S3Server> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'ss-s3-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '-e',
      `${ATOMIC_PUT}\nrequire(${JSON.stringify(CLI)}).parseAsync(process.argv.slice(1), { from: 'user' })`,
      '--',
      ...['-d', dir, '-a', '127.0.0.1', '-p', String(port), '--silent', '--configure-bucket', bucket],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (text) => {
    stderr += text;
  });
  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`s3rver exited: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`s3rver did not listen on ${port}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    settings: {
      bucket,
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    },
    async stop() {
      // A child ended by a signal keeps exitCode null: a second stop must not wait for it.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
