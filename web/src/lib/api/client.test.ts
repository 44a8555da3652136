import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import {
  ApiError,
  apiGet,
  apiPost,
  errorMessage,
  extractFieldErrors,
  extractServerMessage,
  handleUnauthorizedError,
  isUnauthorizedError,
  parseApiError,
  queryKeyUrl,
} from './client.ts';

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  resetToasts();
});

describe('api client requests', () => {
  it('sends cookies and a JSON body', async () => {
    const fetchMock = stubFetch(
      new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } }),
    );
    await expect(apiPost('/api/auth/logout', { a: 1 })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/auth/logout');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"a":1}');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('sends no body and no content type for a GET', async () => {
    const fetchMock = stubFetch(new Response('[]', { headers: { 'content-type': 'application/json' } }));
    await apiGet('/api/facets');
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBeUndefined();
    expect(new Headers(init?.headers).get('Content-Type')).toBeNull();
  });

  it('throws "{status}: {response text}" on a non-success answer', async () => {
    stubFetch(
      new Response('{"message":"That handle is already taken","code":"HANDLE_TAKEN"}', {
        status: 409,
        statusText: 'Conflict',
      }),
    );
    const error = await apiPost('/api/auth/signup', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe(
      '409: {"message":"That handle is already taken","code":"HANDLE_TAKEN"}',
    );
  });

  it('uses the status text when the answer has no body', async () => {
    stubFetch(new Response(null, { status: 502, statusText: 'Bad Gateway' }));
    await expect(apiGet('/api/explore')).rejects.toThrow(/^502: Bad Gateway$/);
  });
});

describe('error message extraction', () => {
  it('takes the message field of JSON after the status prefix', () => {
    const error = new Error('401: {"message":"Invalid credentials","code":"INVALID_CREDENTIALS"}');
    expect(extractServerMessage(error)).toBe('Invalid credentials');
    expect(errorMessage(error, 'fallback')).toBe('Invalid credentials');
    expect(parseApiError(error).status).toBe(401);
  });

  it('falls back when the text is not JSON or has no message', () => {
    expect(errorMessage(new Error('500: Internal Server Error'), 'Failed')).toBe('Failed');
    expect(errorMessage(new Error('400: {"code":"BAD_REQUEST"}'), 'Failed')).toBe('Failed');
    expect(errorMessage(new TypeError('Failed to fetch'), 'Failed')).toBe('Failed');
    expect(errorMessage('{"message":"no prefix"}', 'Failed')).toBe('Failed');
  });

  it('reads the field reasons of a validation failure', () => {
    const error = new Error(
      '400: {"message":"Invalid request","code":"VALIDATION_FAILED","fields":{"handle":"Too short"}}',
    );
    expect(extractFieldErrors(error)).toEqual({ handle: 'Too short' });
    expect(extractFieldErrors(new Error('400: nope'))).toEqual({});
  });
});

describe('unauthorized handling', () => {
  it('recognises only 401 answers that say Unauthorized', () => {
    expect(isUnauthorizedError(new Error('401: {"message":"Unauthorized"}'))).toBe(true);
    expect(isUnauthorizedError(new Error('401: {"message":"Invalid credentials"}'))).toBe(false);
    expect(isUnauthorizedError(new Error('403: Unauthorized'))).toBe(false);
  });

  it('toasts and redirects after 500 ms', () => {
    vi.useFakeTimers();
    const redirect = vi.fn();
    const handled = handleUnauthorizedError(
      new Error('401: {"message":"Unauthorized","code":"UNAUTHORIZED"}'),
      redirect,
    );
    expect(handled).toBe(true);
    expect(getToasts()).toMatchObject([
      {
        title: 'Unauthorized',
        description: 'You are logged out. Logging in again...',
        variant: 'destructive',
        open: true,
      },
    ]);
    expect(redirect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(499);
    expect(redirect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(redirect).toHaveBeenCalledOnce();
  });

  it('leaves other errors alone', () => {
    const redirect = vi.fn();
    expect(handleUnauthorizedError(new Error('500: boom'), redirect)).toBe(false);
  });
});

describe('default query URL', () => {
  it('joins the key parts with /', () => {
    expect(queryKeyUrl(['/api/products', 'abc'])).toBe('/api/products/abc');
    expect(queryKeyUrl(['/api/facets'])).toBe('/api/facets');
  });
});
