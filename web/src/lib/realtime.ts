import { CloseCode } from '@streamshop/contract/live-media.ts';
import { socketUrl, takeEarlySocket } from './early-requests.ts';
/**
 * A small WebSocket client that lives outside React: it parses text frames into a typed message
 * union, passes binary frames through, and reconnects with capped, jittered exponential backoff.
 * Components never touch WebSocket directly; feature hooks wrap this class.
 */

export interface BackoffOptions {
  /** Delay before the first retry, before jitter. */
  baseMs: number;
  /** No delay is ever longer than this. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 10_000 };

/**
 * The wait before reconnect attempt `attempt` (0-based): base * 2^attempt capped at max, then
 * jittered to 50–100 % of that so many clients dropped at once do not come back in lockstep.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const exponential = options.baseMs * 2 ** Math.max(0, attempt);
  const capped = Math.min(options.maxMs, exponential);
  return Math.round(capped * (0.5 + random() * 0.5));
}

/** The server restarts (it drains on SIGTERM): come back, to another instance, within RESTART_SPREAD_MS. */
export const CLOSE_SERVICE_RESTART = CloseCode.serviceRestart;

/**
 * A draining server tells all its sockets 1012 at the same moment. Each client waits a random part
 * of this window (full jitter) before it comes back, so they do not land on the other instances in
 * one burst; a refused attempt after that backs off as any other (backoffDelay).
 */
export const RESTART_SPREAD_MS = 2000;

/** The wait before the first reconnect after a 1012: anywhere in [0, RESTART_SPREAD_MS]. */
export function restartDelay(random: () => number = Math.random): number {
  return Math.round(random() * RESTART_SPREAD_MS);
}
/** Our own clean close. */
export const CLOSE_NORMAL = 1000;

/**
 * Close codes after which retrying cannot help: the server's normal close (the stream ended) and
 * the application range (4403 forbidden, 4404 no such room, 4000 another tab took over, ...).
 */
export function isPermanentClose(code: number): boolean {
  return code === CLOSE_NORMAL || (code >= 4000 && code < 5000);
}

export { socketUrl };

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface RealtimeOptions<Incoming> {
  /** A same-origin path such as `/ws?room=abc`. */
  path: string;
  /** Turns a text frame into a message, or null for one this client does not understand. */
  parse: (raw: string) => Incoming | null;
  onMessage?: (message: Incoming) => void;
  onBinary?: (data: ArrayBuffer) => void;
  onStatus?: (status: ConnectionStatus, closeCode?: number) => void;
  /** Called on each successful (re)connect, before any message of that connection. */
  onOpen?: () => void;
  backoff?: BackoffOptions;
}

export class RealtimeSocket<Incoming, Outgoing = never> {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private status: ConnectionStatus = 'closed';

  constructor(private readonly options: RealtimeOptions<Incoming>) {}

  get connectionStatus(): ConnectionStatus {
    return this.status;
  }

  /** Bytes queued in the browser and not yet sent, for back-pressure decisions. */
  get bufferedAmount(): number {
    return this.socket?.bufferedAmount ?? 0;
  }

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  connect(): void {
    this.stopped = false;
    if (this.socket) return;
    this.setStatus(this.attempt === 0 ? 'connecting' : 'reconnecting');
    // The page may have opened this very socket before its code loaded (early-requests.ts).
    const early = this.attempt === 0 ? takeEarlySocket(this.options.path) : undefined;
    const socket = early?.socket ?? new WebSocket(socketUrl(this.options.path));
    socket.binaryType = 'arraybuffer';
    this.socket = socket;

    socket.onopen = () => {
      this.attempt = 0;
      this.setStatus('open');
      this.options.onOpen?.();
    };
    socket.onmessage = (event: MessageEvent) => this.receive(event.data);
    socket.onclose = (event: CloseEvent) => {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      if (this.socket === socket) this.socket = null;
      if (this.stopped || isPermanentClose(event.code)) {
        this.stopped = true;
        this.setStatus('closed', event.code);
        return;
      }
      this.scheduleReconnect(event.code);
    };
    // An error is always followed by close, which decides what happens next.
    socket.onerror = () => {};
    if (early) {
      if (early.opened) socket.onopen(new Event('open'));
      for (const data of early.received) {
        if (this.socket !== socket) break;
        this.receive(data);
      }
    }
  }

  private receive(data: unknown): void {
    if (typeof data === 'string') {
      let message: Incoming | null = null;
      try {
        message = this.options.parse(data);
      } catch {
        message = null;
      }
      // A frame we cannot read is skipped; the connection stays useful for the rest.
      if (message !== null) this.options.onMessage?.(message);
    } else if (data instanceof ArrayBuffer) {
      this.options.onBinary?.(data);
    }
  }

  /** Sends a typed message if the connection is open; returns whether it was sent. */
  send(message: Outgoing): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Sends a binary frame (a Blob keeps MediaRecorder's chunk order without an extra copy). */
  sendBinary(data: Blob | ArrayBuffer | ArrayBufferView<ArrayBuffer>): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(data);
    return true;
  }

  /** Closes for good: no reconnect follows. Safe to call more than once. */
  close(): void {
    this.stopped = true;
    if (this.retryTimer !== null) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) {
        socket.close(CLOSE_NORMAL, 'client closed');
      }
    }
    this.setStatus('closed', CLOSE_NORMAL);
  }

  private scheduleReconnect(code: number): void {
    const delay =
      code === CLOSE_SERVICE_RESTART ? restartDelay() : backoffDelay(this.attempt, this.options.backoff);
    this.attempt += 1;
    this.setStatus('reconnecting', code);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.connect();
    }, delay);
  }

  private setStatus(status: ConnectionStatus, closeCode?: number): void {
    if (this.status === status) return;
    this.status = status;
    this.options.onStatus?.(status, closeCode);
  }
}
