import { z } from 'zod';

/** Machine-readable error codes carried in every error body. */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'FORBIDDEN',
  /** A Pro feature asked for on the free plan (403). */
  'PRO_REQUIRED',
  /** A mailed link's token: unknown or altered, past its time, or already used (400). */
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'TOKEN_USED',
  'CSRF_REJECTED',
  'NOT_FOUND',
  'CONFLICT',
  'HANDLE_TAKEN',
  'EMAIL_TAKEN',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  /** A bid without a saved card, or without a shipping address for a shipped product (402). */
  'PAYMENT_METHOD_REQUIRED',
  /** A bid refused or overtaken (409, with minNextBidCents): see contract/src/auctions.ts. */
  'OUTBID',
  'TOO_LOW',
  'AUCTION_ENDED',
  'NOT_CONFIGURED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Body of every non-2xx JSON response: `{message, code, fields?}`. */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODES),
  /** Field path (dot-joined) to the reason it was rejected. */
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
