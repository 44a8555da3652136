import { randomBytes } from 'node:crypto';

/**
 * The server's side of RTMP's plain handshake (RTMP 1.0 specification, section 5.2): C0 (the
 * version, 3) and C1 (1536 bytes) in, S0, S1 and S2 (the echo of C1) out, then C2 in.
 *
 * Clients that send a digest-style C1 (ffmpeg, OBS's librtmp and Flash Player put a version in
 * bytes 4..7 and an HMAC digest in the random part) are answered the same way: S1's version
 * bytes are zero, which tells them the server does not do the digest handshake, and publishers
 * do not check the server's digest anyway. Encrypted RTMP (RTMPE, C0 = 6) is refused.
 */

export const RTMP_VERSION = 3;
export const HANDSHAKE_SIZE = 1536;

export class HandshakeError extends Error {
  override name = 'HandshakeError';
}

export interface HandshakeStep {
  /** When set, goes to the client: S0 + S1 + S2. */
  reply?: Buffer;
  /** C2 arrived: `rest` are the bytes after it (the first chunks, often in the same packet). */
  done: boolean;
  rest: Buffer;
}

export class ServerHandshake {
  private received: Buffer = Buffer.alloc(0);
  private replied = false;

  /** Throws HandshakeError when the first byte is not version 3. */
  push(bytes: Buffer): HandshakeStep {
    this.received = this.received.length ? Buffer.concat([this.received, bytes]) : bytes;
    const version = this.received[0];
    if (version !== undefined && version !== RTMP_VERSION)
      throw new HandshakeError(`the client asked for RTMP version ${version}`);
    let reply: Buffer | undefined;
    if (!this.replied && this.received.length >= 1 + HANDSHAKE_SIZE) {
      this.replied = true;
      const c1 = this.received.subarray(1, 1 + HANDSHAKE_SIZE);
      // S1: our time (0: nobody reads it), four zero bytes (no digest), random bytes.
      const s1 = randomBytes(HANDSHAKE_SIZE);
      s1.fill(0, 0, 8);
      reply = Buffer.concat([Buffer.of(RTMP_VERSION), s1, c1]);
    }
    const end = 1 + 2 * HANDSHAKE_SIZE;
    if (this.received.length < end) return { reply, done: false, rest: Buffer.alloc(0) };
    // C2 echoes S1; clients vary in what they put there (librtmp sends S1, ffmpeg its digest),
    // and nothing depends on it, so it is not checked.
    return { reply, done: true, rest: this.received.subarray(end) };
  }
}
