import { randomBytes } from 'node:crypto';

export interface StreamView {
  isActive: boolean;
  startedAt: string | null;
  endsAt: string | null;
  hlsUrl: string | null;
  vodUrl: string | null;
}

/**
 * A seller going live from an encoder through the public API of a running server (any instance:
 * the session is in the shared database): sign up, create a stream, read its key, end it.
 */
export async function signUpSeller(base: string) {
  const suffix = randomBytes(4).toString('hex');
  const response = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Sam',
      lastName: 'Seller',
      handle: `seller_${suffix}`,
      email: `seller_${suffix}@example.com`,
      password: 'correct horse battery',
    }),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const cookie = (response.headers.getSetCookie().find((c) => c.startsWith('sid=')) ?? '').split(';')[0];
  if (!cookie) throw new Error('no session cookie');
  return sellerClient(cookie);
}

export type SellerClient = ReturnType<typeof sellerClient>;

function sellerClient(cookie: string) {
  async function call(base: string, path: string, method = 'GET') {
    const response = await fetch(`${base}${path}`, { method, headers: { cookie } });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  }
  return {
    cookie,
    /** A new stream (not live until its encoder connects); its room name. */
    async newStream(base: string, title = 'Failover test'): Promise<string> {
      const response = await fetch(`${base}/api/rooms`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      if (response.status !== 201) throw new Error(`creating a stream: ${response.status}`);
      return ((await response.json()) as { roomName: string }).roomName;
    },
    async streamKey(base: string, roomName: string): Promise<string> {
      return (await call(base, `/api/streams/${roomName}/ingest`)).streamKey as string;
    },
    async end(base: string, roomName: string): Promise<void> {
      await call(base, `/api/streams/${roomName}/end`, 'POST');
    },
  };
}

/** The stream as anyone reads it. */
export async function streamView(base: string, roomName: string): Promise<StreamView> {
  const response = await fetch(`${base}/api/streams/${roomName}`);
  if (!response.ok) throw new Error(`GET /api/streams/${roomName}: ${response.status}`);
  return (await response.json()) as StreamView;
}

/** The number of segments in a stream's HLS playlist (0 while there is none). */
export async function segmentsIn(base: string, roomName: string, file = 'live.m3u8'): Promise<number> {
  const response = await fetch(`${base}/media/hls/${roomName}/${file}`);
  const text = await response.text();
  return response.ok ? text.split('\n').filter((line) => line.endsWith('.m4s')).length : 0;
}
