import type { MediaControl } from '@streamshop/contract/live.ts';
import type { WebSocket } from 'ws';
import type { RelayEvent } from '../../relay-events.ts';

/** A viewer with more than this queued in its socket is skipped ahead to the next keyframe. */
export const MAX_VIEWER_BACKLOG_BYTES = 1024 * 1024;
/**
 * A viewer whose socket has not answered a ping for this long is behind by about as much: it is
 * skipped ahead to the next keyframe once it has caught up. The kernel's send buffer (several MB)
 * hides that backlog from `bufferedAmount`; a pong comes only after everything sent before its
 * ping has reached the viewer.
 */
export const MAX_VIEWER_LAG_MS = 2000;
/** The group kept for late joiners never grows past this (a keyframe interval is far smaller). */
const MAX_GROUP_BYTES = 8 * 1024 * 1024;

interface Viewer {
  socket: WebSocket;
  /** Behind (or just joined while idle): waits for the next keyframe before getting media again. */
  waitingForKeyframe: boolean;
  /** When the ping not yet answered was sent (Date.now()); undefined when none is out. */
  pingSentAt: number | undefined;
  onPong: () => void;
}

const control = (message: MediaControl) => JSON.stringify(message);

/**
 * The live video of one room on this instance: the init segment and the bytes since the latest
 * video keyframe (so a viewer who joins starts at once), fanned out to every viewer as it arrives.
 * It is driven by relay events, from this instance's publisher or from another instance's.
 */
export class RoomRelay {
  private mimeType = '';
  private init: Buffer | undefined;
  /** From the latest video keyframe: a synthesized Cluster start, its Timecode, then every byte since. */
  private group: Buffer[] = [];
  private groupStartParts = 0;
  private groupBytes = 0;
  private readonly viewers = new Set<Viewer>();

  get publishing(): boolean {
    return this.init !== undefined;
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  apply(event: RelayEvent): void {
    switch (event.kind) {
      case 'reset':
        this.mimeType = event.mimeType;
        this.init = undefined;
        this.group = [];
        this.groupBytes = 0;
        return;
      case 'init':
        this.setInit(event.bytes);
        return;
      case 'group':
        this.startGroup(event.start, event.keyframe);
        return;
      case 'append':
        this.append(event.bytes);
        return;
      case 'idle':
        this.goIdle();
        return;
      case 'snapshot':
        for (const inner of event.events) this.apply(inner);
        return;
      case 'sync':
        return;
    }
  }

  /** The relay's state as events: applied to an empty relay, they give the same init and group. */
  snapshot(): RelayEvent | undefined {
    if (!this.init) return undefined;
    const events: RelayEvent[] = [
      { kind: 'reset', mimeType: this.mimeType },
      { kind: 'init', bytes: this.init },
    ];
    const [keyframe, ...rest] = this.group.slice(this.groupStartParts);
    if (keyframe) {
      events.push({ kind: 'group', start: this.group.slice(0, this.groupStartParts), keyframe });
      for (const bytes of rest) events.push({ kind: 'append', bytes });
    }
    return { kind: 'snapshot', events };
  }

  private goIdle(): void {
    this.init = undefined;
    for (const viewer of this.viewers) {
      viewer.waitingForKeyframe = true;
      this.sendText(viewer, control({ type: 'media_idle' }));
    }
  }

  addViewer(socket: WebSocket): void {
    const viewer: Viewer = { socket, waitingForKeyframe: true, pingSentAt: undefined, onPong: () => {} };
    viewer.onPong = () => {
      viewer.pingSentAt = undefined;
    };
    socket.on('pong', viewer.onPong);
    this.viewers.add(viewer);
    if (!this.init) {
      this.sendText(viewer, control({ type: 'media_idle' }));
      return;
    }
    this.sendText(viewer, control({ type: 'media_reset', mimeType: this.mimeType }));
    this.sendBinary(viewer, this.init);
    if (this.group.length) {
      for (const bytes of this.group) this.sendBinary(viewer, bytes);
      viewer.waitingForKeyframe = false;
    }
  }

  removeViewer(socket: WebSocket): void {
    for (const viewer of this.viewers) {
      if (viewer.socket !== socket) continue;
      socket.off('pong', viewer.onPong);
      this.viewers.delete(viewer);
    }
  }

  broadcastControl(message: MediaControl): void {
    const text = control(message);
    for (const viewer of this.viewers) this.sendText(viewer, text);
  }

  private setInit(bytes: Buffer) {
    this.init = bytes;
    this.group = [];
    this.groupBytes = 0;
    this.broadcastControl({ type: 'media_reset', mimeType: this.mimeType });
    for (const viewer of this.viewers) {
      this.sendBinary(viewer, bytes);
      viewer.waitingForKeyframe = true;
    }
  }

  /**
   * A video keyframe: late joiners and lagging viewers start here. Each viewer is pinged (one
   * ping out at a time): one that has not answered for MAX_VIEWER_LAG_MS is behind and skips ahead.
   */
  private startGroup(start: Buffer[], keyframe: Buffer) {
    this.group = [...start, keyframe];
    this.groupStartParts = start.length;
    this.groupBytes = this.group.reduce((n, b) => n + b.length, 0);
    const now = Date.now();
    for (const viewer of this.viewers) {
      const late = viewer.pingSentAt !== undefined && now - viewer.pingSentAt > MAX_VIEWER_LAG_MS;
      if (late) viewer.waitingForKeyframe = true;
      // A skipped viewer starts again once its ping is answered: what was queued has reached it.
      if (viewer.waitingForKeyframe && !late && viewer.socket.bufferedAmount < MAX_VIEWER_BACKLOG_BYTES / 2) {
        viewer.waitingForKeyframe = false;
        for (const bytes of start) this.sendBinary(viewer, bytes);
      }
      this.forward(viewer, keyframe);
      this.ping(viewer, now);
    }
  }

  private ping(viewer: Viewer, now: number) {
    if (viewer.pingSentAt !== undefined || viewer.socket.readyState !== viewer.socket.OPEN) return;
    viewer.pingSentAt = now;
    viewer.socket.ping();
  }

  private append(bytes: Buffer) {
    if (this.group.length && this.groupBytes + bytes.length <= MAX_GROUP_BYTES) {
      this.group.push(bytes);
      this.groupBytes += bytes.length;
    }
    for (const viewer of this.viewers) this.forward(viewer, bytes);
  }

  private forward(viewer: Viewer, bytes: Buffer) {
    if (viewer.waitingForKeyframe) return;
    if (viewer.socket.bufferedAmount > MAX_VIEWER_BACKLOG_BYTES) {
      viewer.waitingForKeyframe = true; // skipped ahead: memory per viewer stays bounded
      return;
    }
    this.sendBinary(viewer, bytes);
  }

  private sendBinary(viewer: Viewer, bytes: Buffer) {
    if (viewer.socket.readyState === viewer.socket.OPEN) viewer.socket.send(bytes, { binary: true });
  }

  private sendText(viewer: Viewer, text: string) {
    if (viewer.socket.readyState === viewer.socket.OPEN) viewer.socket.send(text);
  }
}
