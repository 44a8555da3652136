import { UNAUTHORIZED_REDIRECT_MS } from '@streamshop/contract/constants.ts';
import { takeEarlyGet } from '../early-requests.ts';
import { errorToast } from '../error-toast.ts';

/**
 * The error every failed call throws. Its message follows spec section 8:
 * `${status}: ${responseText || statusText}`, e.g. `409: {"message":"...","code":"HANDLE_TAKEN"}`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly responseText: string;

  constructor(status: number, statusText: string, responseText: string) {
    super(`${status}: ${responseText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.responseText = responseText;
  }
}

/** Throws an ApiError unless the response is a success (2xx). */
export async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, text);
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Sends a request with the session cookie; a body is sent as JSON. Resolves with the parsed
 * JSON answer (or undefined for an empty one), rejects with an ApiError on any non-success.
 */
export async function apiRequest<T>(method: Method, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, credentials: 'same-origin', headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  // A GET the page started before its code loaded (early-requests.ts) is used once.
  const early = method === 'GET' ? takeEarlyGet(url) : undefined;
  const response = await (early ?? fetch(url, init));
  await throwIfNotOk(response);
  const text = await response.text();
  if (!text) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('json') ? JSON.parse(text) : text) as T;
}

export const apiGet = <T>(url: string) => apiRequest<T>('GET', url);
export const apiPost = <T>(url: string, body?: unknown) => apiRequest<T>('POST', url, body);
export const apiPut = <T>(url: string, body?: unknown) => apiRequest<T>('PUT', url, body);
export const apiDelete = <T>(url: string) => apiRequest<T>('DELETE', url);

export interface ParsedApiError {
  /** The HTTP status from the `NNN: ` prefix, or null when the error has none. */
  status: number | null;
  /** The text after the prefix (the whole message when there is no prefix). */
  text: string;
  /** The server's JSON body when the text is JSON, else null. */
  body: { message?: unknown; code?: unknown; fields?: unknown } | null;
}

const STATUS_PREFIX = /^(\d{3}): ([\s\S]*)$/;

/** Splits an error message of the form `NNN: text` and parses the text when it is JSON. */
export function parseApiError(error: unknown): ParsedApiError {
  const message = error instanceof Error ? error.message : String(error ?? '');
  const match = STATUS_PREFIX.exec(message);
  const status = match ? Number(match[1]) : null;
  const text = match ? (match[2] ?? '') : message;
  let body: ParsedApiError['body'] = null;
  if (match) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        body = parsed as ParsedApiError['body'];
      }
    } catch {
      // Not JSON: a plain-text or HTML error page; callers fall back to their own message.
    }
  }
  return { status, text, body };
}

/** The `message` field of a JSON error body after the status prefix, if there is one. */
export function extractServerMessage(error: unknown): string | undefined {
  const { body } = parseApiError(error);
  const message = body?.message;
  return typeof message === 'string' && message.trim() ? message : undefined;
}

/** The server's message for a failed call, or the given fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return extractServerMessage(error) ?? fallback;
}

/** The per-field reasons of a VALIDATION_FAILED answer (`fields`), or an empty object. */
export function extractFieldErrors(error: unknown): Record<string, string> {
  const fields = parseApiError(error).body?.fields;
  if (!fields || typeof fields !== 'object') return {};
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') result[key] = value;
  }
  return result;
}

/** Spec section 6: a response starting with '401: ' and containing 'Unauthorized'. */
export function isUnauthorizedError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return message.startsWith('401: ') && message.includes('Unauthorized');
}

/**
 * Spec section 6: treat the visitor as logged out. Shows the 'Unauthorized' toast and calls
 * `redirect` (which should go to /) after 500 ms. Returns whether the error was handled.
 */
export function handleUnauthorizedError(error: unknown, redirect: () => void): boolean {
  if (!isUnauthorizedError(error)) return false;
  errorToast('Unauthorized', 'You are logged out. Logging in again...');
  setTimeout(redirect, UNAUTHORIZED_REDIRECT_MS);
  return true;
}

/**
 * The default query function: a GET of the query key's parts joined with '/'
 * (spec section 7), e.g. ['/api/products', id] -> GET /api/products/{id}.
 */
export function queryKeyUrl(queryKey: readonly unknown[]): string {
  return queryKey
    .filter((part) => typeof part === 'string' || typeof part === 'number')
    .map(String)
    .join('/');
}
