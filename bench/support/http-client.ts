/** The benchmarks' HTTP client: plain fetch with a timeout, the run's abort signal, and the app's CSRF origin. */

const REQUEST_TIMEOUT_MS = 30_000;

export interface Reply {
  /** 0 when the request failed without an answer (connection error, timeout). */
  status: number;
  ms: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of several shapes, read field by field
  body: any;
  setCookies: string[];
  error?: string;
}

export interface Client {
  base: string;
  request(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options?: { cookie?: string; body?: unknown; forwardedFor?: string },
  ): Promise<Reply>;
}

/** Plain fetch against `base`; every request also ends when `signal` aborts (the run's hard cap). */
export function client(base: string, signal?: AbortSignal): Client {
  return {
    base,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = {};
      if (options.cookie) headers.cookie = options.cookie;
      if (options.forwardedFor) headers['x-forwarded-for'] = options.forwardedFor;
      // What a browser on the app's own origin sends (the server's CSRF check wants it same-origin);
      // like the web client, a content type only with a body.
      if (method !== 'GET') headers.origin = base;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      const started = performance.now();
      try {
        const response = await fetch(`${base}${path}`, {
          method,
          headers,
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        const text = await response.text();
        const ms = performance.now() - started;
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {}
        return { status: response.status, ms, body, setCookies: response.headers.getSetCookie() };
      } catch (error) {
        return {
          status: 0,
          ms: performance.now() - started,
          body: undefined,
          setCookies: [],
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        };
      }
    },
  };
}
