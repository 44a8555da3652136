import { createHmac, randomBytes } from 'node:crypto';
import { TOKEN_MESSAGES } from '@streamshop/contract/account-recovery.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { findToken, insertToken, type TokenPurpose, type TokenRow, useToken } from './tokens-repo.ts';

/**
 * The single-use tokens of mailed links: 32 random bytes in the link, an HMAC of them (keyed by
 * SESSION_SECRET) in the table, so a leaked table opens no account.
 */
export class AccountTokens {
  constructor(private readonly secret: string) {}

  private hash(token: string): string {
    return createHmac('sha256', this.secret).update(token).digest('base64url');
  }

  /** A new token for `purpose`, written in `tx`; answers its id (for the mail's dedupe key) and the token. */
  async issue(
    tx: Db | Tx,
    input: { userId: string; purpose: TokenPurpose; email: string; ttlSec: number },
  ): Promise<{ id: string; token: string }> {
    const token = randomBytes(32).toString('base64url');
    const id = await insertToken(tx, { ...input, hash: this.hash(token) });
    return { id, token };
  }

  /** Uses the token once; a 400 that says why when it cannot (unknown or altered, expired, used). */
  async use(tx: Db | Tx, token: string, purpose: TokenPurpose): Promise<TokenRow> {
    const hash = this.hash(token);
    const used = await useToken(tx, hash, purpose);
    if (used) return used;
    const found = await findToken(tx, hash, purpose);
    const code = !found ? 'TOKEN_INVALID' : found.used ? 'TOKEN_USED' : 'TOKEN_EXPIRED';
    throw new AppError(400, code, TOKEN_MESSAGES[code]);
  }
}
