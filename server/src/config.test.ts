import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { startServerProcess } from './test/server-process.ts';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const STRIPE = {
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
};
const base = { DATA_DIR: tmpdir(), SESSION_SECRET: 'x'.repeat(32) };

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['true', 1],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['fd00::/8,::1', ['fd00::/8', '::1']],
  ])('%s means %j', (value, expected) => {
    expect(loadConfig({ ...base, TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['yes', '10.0.0.0/33', 'proxy.internal', '1.2.3', '10.0.0.1/8/2'])(
    'refuses %s with a message',
    (value) => {
      expect(() => loadConfig({ ...base, TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY: must be false, a hop count/,
      );
    },
  );
});

describe('payments in production', () => {
  it('refuses the offline test card provider unless ALLOW_TEST_PAYMENTS=true', () => {
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(/ALLOW_TEST_PAYMENTS=true/);
    expect(
      loadConfig({ ...base, NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' }).allowTestPayments,
    ).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'production', ...STRIPE }).stripe).toBeDefined();
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).stripe).toBeUndefined();
  });

  it('a production server without Stripe keys does not start, and says why', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ss-config-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(output).toMatch(/NODE_ENV=production needs STRIPE_SECRET_KEY/);
      expect(output).toMatch(/ALLOW_TEST_PAYMENTS=true/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('RESTREAM_ALLOWED_HOSTS and SESSION_IDLE_TIMEOUT_HOURS', () => {
  it('reads a comma-separated list and hours', () => {
    const config = loadConfig({
      ...base,
      RESTREAM_ALLOWED_HOSTS: ' 127.0.0.1, rtmp.internal ',
      SESSION_IDLE_TIMEOUT_HOURS: '2',
    });
    expect(config.restreamAllowedHosts).toEqual(['127.0.0.1', 'rtmp.internal']);
    expect(config.sessionIdleTimeoutMs).toBe(2 * 3_600_000);
    expect(loadConfig(base).restreamAllowedHosts).toEqual([]);
  });
});

describe('S3_*', () => {
  it('keeps media in the bucket when S3_BUCKET is set, and on disk otherwise', () => {
    expect(loadConfig(base).s3).toBeUndefined();
    expect(
      loadConfig({
        ...base,
        S3_BUCKET: 'media',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).s3,
    ).toEqual({
      bucket: 'media',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
  });

  it.each([
    [{ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'id' }, 'both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY'],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'S3_BUCKET: is required'],
    [{ S3_BUCKET: 'media', S3_ENDPOINT: 'not a url' }, 'S3_ENDPOINT'],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});

describe('RTMP_PORT and RTMP_URL', () => {
  it('listens on 1935 and tells encoders the site host, unless told otherwise', () => {
    const config = loadConfig({ ...base, PUBLIC_URL: 'https://shop.example.com' });
    expect(config.rtmpPort).toBe(1935);
    expect(config.rtmpUrl).toBe('rtmp://shop.example.com/live');
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://shop.example.com', RTMP_PORT: '1936' }).rtmpUrl).toBe(
      'rtmp://shop.example.com:1936/live',
    );
    expect(loadConfig({ ...base, RTMP_URL: 'rtmps://ingest.example.com/live/' }).rtmpUrl).toBe(
      'rtmps://ingest.example.com/live',
    );
    expect(loadConfig({ ...base, RTMP_PORT: '0' }).rtmpPort).toBe(0);
  });
  it('refuses a port out of range and a URL that is not RTMP', () => {
    expect(() => loadConfig({ ...base, RTMP_PORT: '70000' })).toThrow(/RTMP_PORT/);
    expect(() => loadConfig({ ...base, RTMP_URL: 'https://example.com/live' })).toThrow(/RTMP_URL/);
  });
  it('lets 10 RTMP connections in per address unless told otherwise (a TLS terminator in front)', () => {
    expect(loadConfig(base).rtmpConnectionsPerAddress).toBe(10);
    expect(loadConfig({ ...base, RTMP_CONNECTIONS_PER_ADDRESS: '60' }).rtmpConnectionsPerAddress).toBe(60);
    expect(() => loadConfig({ ...base, RTMP_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(
      /RTMP_CONNECTIONS_PER_ADDRESS/,
    );
  });
});

describe('REDIS_URL and media storage', () => {
  const redis = { REDIS_URL: 'redis://127.0.0.1:6379' };
  const message =
    "REDIS_URL is set (several instances) but media is kept in DATA_DIR/media on this machine: set S3_BUCKET so instances share media, or MEDIA_DIR_SHARED=true if every instance's DATA_DIR is the same shared folder";

  it('refuses several instances with media on each machine, and names both ways out', () => {
    expect(() => loadConfig({ ...base, ...redis })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...redis })).toThrow(message);
    expect(() => loadConfig({ ...base, ...redis, MEDIA_DIR_SHARED: 'false' })).toThrow(message);
    expect(() => loadConfig({ ...base, MEDIA_DIR_SHARED: 'yes' })).toThrow(/MEDIA_DIR_SHARED/);
  });

  it('starts with S3_BUCKET, with MEDIA_DIR_SHARED=true, or without REDIS_URL', () => {
    expect(loadConfig({ ...base, ...redis, S3_BUCKET: 'media' }).s3?.bucket).toBe('media');
    expect(loadConfig({ ...base, ...redis, MEDIA_DIR_SHARED: 'true' }).redisUrl).toBe(redis.REDIS_URL);
    expect(loadConfig(base).redisUrl).toBeUndefined();
  });

  it('the real server does not start, and says why', async () => {
    const started = startServerProcess({ env: redis, stdio: 'pipe' });
    await expect(started).rejects.toThrow(/exited with code 1 at start/);
    await expect(started).rejects.toThrow(message);
  }, 60_000);
});
