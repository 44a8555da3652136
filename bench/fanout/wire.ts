/**
 * A minimal WebSocket client on a raw TCP socket (RFC 6455, client side): the upgrade, then the
 * server's frames walked header by header. Lighter than `ws` for a thousand viewers in one process
 * (a frame's payload is kept only when asked for), and its reading can be throttled: the socket is
 * paused between reads, so the kernel's buffers fill and the server sees a slow viewer, as on a
 * slow network.
 */

import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const HANDSHAKE_TIMEOUT_MS = 30_000;

export const OPCODE = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

export interface WireOptions {
  /** ws://host:port/path?query */
  url: string;
  /** Keep each message's payload (else only its length is counted). */
  keepPayload?: boolean;
  /** Else keep this many bytes of each message's start (its payload is then only that). */
  headBytes?: number;
  /** Read at most this many bytes per second from the socket (unset: as fast as they come). */
  readBytesPerSec?: number;
  /** A whole message arrived (`at`: performance.now() of the chunk that completed it). */
  onMessage(opcode: number, length: number, payload: Buffer | undefined, at: number): void;
  onClose?(): void;
}

export interface WireClient {
  socket: net.Socket;
  /** Bytes read from the socket since the upgrade. */
  readonly bytesRead: number;
  closed: boolean;
  /** A new reading rate from now on (undefined: as fast as the bytes come). */
  setReadRate(bytesPerSec: number | undefined): void;
  close(): void;
}

/** A masked frame from the client: a pong or a close. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number)));
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked]);
}

/** Connects and upgrades; resolves once the server answered 101 with the right accept key. */
export function connectWire(options: WireOptions): Promise<WireClient> {
  const url = new URL(options.url);
  const key = randomBytes(16).toString('base64');
  const accept = createHash('sha1')
    .update(key + GUID)
    .digest('base64');
  const socket = net.connect({ host: url.hostname, port: Number(url.port) });
  socket.setNoDelay(true);
  let head: Buffer = Buffer.alloc(0);
  let upgraded = false;
  let bytesRead = 0;
  // The throttle: from `rateFrom` on, reads are allowed `rate` bytes per second past `rateBase`.
  let rate = options.readBytesPerSec;
  let rateFrom = performance.now();
  let rateBase = 0;
  let resumeTimer: NodeJS.Timeout | undefined;
  // The frame being read: its header bytes, then how much payload is left.
  let pending: Buffer = Buffer.alloc(0);
  let payloadLeft = 0;
  let opcode = 0;
  let fin = true;
  let messageOpcode = 0;
  let messageLength = 0;
  let parts: Buffer[] = [];
  let kept = 0;
  const keep = options.keepPayload ? Number.POSITIVE_INFINITY : (options.headBytes ?? 0);
  let control: Buffer[] = [];
  const client: WireClient = {
    socket,
    get bytesRead() {
      return bytesRead;
    },
    closed: false,
    setReadRate(bytesPerSec) {
      rate = bytesPerSec;
      rateFrom = performance.now();
      rateBase = bytesRead;
      clearTimeout(resumeTimer);
      resumeTimer = undefined;
      socket.resume();
    },
    close() {
      if (client.closed) return;
      client.closed = true;
      if (socket.writable) socket.end(clientFrame(OPCODE.close, Buffer.from([0x03, 0xe8])));
      setTimeout(() => socket.destroy(), 3000).unref();
    },
  };

  const finishFrame = (at: number) => {
    if (opcode >= OPCODE.close) {
      const payload = Buffer.concat(control);
      control = [];
      if (opcode === OPCODE.ping && socket.writable) socket.write(clientFrame(OPCODE.pong, payload));
      if (opcode === OPCODE.close) client.close();
      return;
    }
    if (!fin) return;
    const payload = keep > 0 ? Buffer.concat(parts) : undefined;
    parts = [];
    kept = 0;
    options.onMessage(messageOpcode, messageLength, payload, at);
    messageLength = 0;
  };

  /** Walks the frames in `chunk`; payload bytes are skipped unless kept. */
  const walk = (chunk: Buffer, at: number) => {
    let offset = 0;
    while (offset < chunk.length) {
      if (payloadLeft > 0) {
        const take = Math.min(payloadLeft, chunk.length - offset);
        const slice = chunk.subarray(offset, offset + take);
        if (opcode >= OPCODE.close) control.push(Buffer.from(slice));
        else {
          messageLength += take;
          if (kept < keep) {
            const piece = Buffer.from(kept + take <= keep ? slice : slice.subarray(0, keep - kept));
            parts.push(piece);
            kept += piece.length;
          }
        }
        payloadLeft -= take;
        offset += take;
        if (payloadLeft === 0) finishFrame(at);
        continue;
      }
      pending = pending.length ? Buffer.concat([pending, chunk.subarray(offset)]) : chunk.subarray(offset);
      offset = chunk.length;
      if (pending.length < 2) break;
      const b1 = pending[1] as number;
      let length = b1 & 0x7f;
      let headerLength = 2;
      if (length === 126) headerLength = 4;
      else if (length === 127) headerLength = 10;
      if (pending.length < headerLength) break;
      if (length === 126) length = pending.readUInt16BE(2);
      else if (length === 127) length = Number(pending.readBigUInt64BE(2));
      const b0 = pending[0] as number;
      fin = (b0 & 0x80) !== 0;
      opcode = b0 & 0x0f;
      if (opcode !== OPCODE.continuation && opcode < OPCODE.close) messageOpcode = opcode;
      payloadLeft = length;
      const rest = pending.subarray(headerLength);
      pending = Buffer.alloc(0);
      if (length === 0) finishFrame(at);
      // The rest of this chunk is walked again from its start.
      chunk = rest;
      offset = 0;
    }
  };

  const throttle = () => {
    if (!rate) return;
    // Reads so far are allowed rate × elapsed (plus one 64 KB read of slack): pause until then.
    const allowedAt = rateFrom + ((bytesRead - rateBase - 65_536) / rate) * 1000;
    const waitMs = allowedAt - performance.now();
    if (waitMs > 0 && !resumeTimer) {
      socket.pause();
      resumeTimer = setTimeout(() => {
        resumeTimer = undefined;
        socket.resume();
      }, waitMs);
      resumeTimer.unref();
    }
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no upgrade within ${HANDSHAKE_TIMEOUT_MS / 1000} s from ${options.url}`));
    }, HANDSHAKE_TIMEOUT_MS);
    socket.once('connect', () => {
      socket.write(
        `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\n` +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      const at = performance.now();
      if (upgraded) {
        bytesRead += chunk.length;
        walk(chunk, at);
        throttle();
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const response = head.subarray(0, end).toString('latin1');
      clearTimeout(timer);
      if (!/^HTTP\/1\.1 101/.test(response) || !response.includes(accept)) {
        socket.destroy();
        reject(new Error(`upgrade refused: ${response.split('\r\n')[0]}`));
        return;
      }
      upgraded = true;
      resolve(client);
      const rest = head.subarray(end + 4);
      head = Buffer.alloc(0);
      if (rest.length) {
        bytesRead += rest.length;
        walk(rest, at);
        throttle();
      }
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      if (!upgraded) reject(error);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      clearTimeout(resumeTimer);
      client.closed = true;
      if (upgraded) options.onClose?.();
      else reject(new Error(`closed before the upgrade (${options.url})`));
    });
  });
}

/**
 * The fragment's sequence number (moof → mfhd, after any prefix boxes such as styp), or undefined
 * when the message holds no moof (the init segment).
 */
export function fragmentSequence(payload: Buffer): number | undefined {
  for (let offset = 0; offset + 24 <= payload.length; ) {
    const size = payload.readUInt32BE(offset);
    if (payload.toString('latin1', offset + 4, offset + 8) === 'moof') {
      if (payload.toString('latin1', offset + 12, offset + 16) !== 'mfhd') return undefined;
      return payload.readUInt32BE(offset + 20);
    }
    if (size < 8) return undefined;
    offset += size;
  }
  return undefined;
}
