/** Stands in for the browser's WebSocket in tests: the test opens, feeds and closes it by hand. */
export class ScriptedSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static made: ScriptedSocket[] = [];
  readyState = ScriptedSocket.CONNECTING;
  binaryType = 'blob';
  closedWith: number | undefined;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(readonly url: string) {
    ScriptedSocket.made.push(this);
  }
  open() {
    this.readyState = ScriptedSocket.OPEN;
    this.onopen?.(new Event('open'));
  }
  receive(data: string | ArrayBuffer) {
    this.onmessage?.(new MessageEvent('message', { data }));
  }
  drop(code = 1006) {
    this.readyState = ScriptedSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code }));
  }
  close(code: number) {
    this.closedWith = code;
    this.readyState = ScriptedSocket.CLOSED;
  }
}
