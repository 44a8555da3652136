import type { MediaControl } from '@streamshop/contract/live.ts';
import type { WebSocket } from 'ws';
import { type WebmEvent, WebmReader } from './webm.ts';

/** A Cluster header of unknown size, to start a viewer at a keyframe in the middle of a Cluster. */
const CLUSTER_OF_UNKNOWN_SIZE = Buffer.from([
  0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
]);
const TIMECODE_ID = 0xe7;
/** A viewer with more than this queued in its socket is skipped ahead to the next keyframe. */
export const MAX_VIEWER_BACKLOG_BYTES = 1024 * 1024;
/** The group kept for late joiners never grows past this (a keyframe interval is far smaller). */
const MAX_GROUP_BYTES = 8 * 1024 * 1024;

interface Viewer {
  socket: WebSocket;
  /** Behind (or just joined while idle): waits for the next keyframe before getting media again. */
  waitingForKeyframe: boolean;
}

const control = (message: MediaControl) => JSON.stringify(message);

/**
 * The live video of one room on this instance: the init segment and the bytes since the latest
 * video keyframe (so a viewer who joins starts at once), fanned out to every viewer as it arrives.
 */
export class RoomRelay {
  private reader = new WebmReader();
  private mimeType = '';
  private init: Buffer | undefined;
  private videoTrack: number | undefined;
  private timecode: Buffer | undefined;
  /** From the latest video keyframe: a synthesized Cluster start, its Timecode, then every byte since. */
  private group: Buffer[] = [];
  private groupBytes = 0;
  private readonly viewers = new Set<Viewer>();

  get publishing(): boolean {
    return this.init !== undefined;
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  /** A (re)connecting publisher: everything restarts from its own init segment. */
  startPublisher(mimeType: string): void {
    this.reader = new WebmReader();
    this.mimeType = mimeType;
    this.init = undefined;
    this.timecode = undefined;
    this.group = [];
    this.groupBytes = 0;
  }

  /** Feeds the publisher's bytes; throws WebmError when they are not a WebM stream. */
  push(chunk: Buffer): void {
    for (const event of this.reader.push(chunk)) this.onEvent(event);
  }

  stopPublisher(): void {
    this.init = undefined;
    for (const viewer of this.viewers) {
      viewer.waitingForKeyframe = true;
      this.sendText(viewer, control({ type: 'media_idle' }));
    }
  }

  addViewer(socket: WebSocket): void {
    const viewer: Viewer = { socket, waitingForKeyframe: true };
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
    for (const viewer of this.viewers) if (viewer.socket === socket) this.viewers.delete(viewer);
  }

  broadcastControl(message: MediaControl): void {
    const text = control(message);
    for (const viewer of this.viewers) this.sendText(viewer, text);
  }

  private onEvent(event: WebmEvent) {
    switch (event.kind) {
      case 'init':
        this.init = event.bytes;
        this.videoTrack = event.videoTrack;
        this.broadcastControl({ type: 'media_reset', mimeType: this.mimeType });
        for (const viewer of this.viewers) {
          this.sendBinary(viewer, event.bytes);
          viewer.waitingForKeyframe = true;
        }
        return;
      case 'cluster':
        this.timecode = undefined;
        return this.append(event.bytes);
      case 'other':
        if (event.bytes[0] === TIMECODE_ID) this.timecode = event.bytes;
        return this.append(event.bytes);
      case 'block':
        if (
          event.keyframe &&
          (event.track === this.videoTrack || this.videoTrack === undefined) &&
          this.timecode
        ) {
          this.startGroup(event.bytes);
        } else {
          this.append(event.bytes);
        }
    }
  }

  /** A video keyframe: late joiners and lagging viewers start here. */
  private startGroup(keyframe: Buffer) {
    const start = [CLUSTER_OF_UNKNOWN_SIZE, this.timecode as Buffer];
    this.group = [...start, keyframe];
    this.groupBytes = this.group.reduce((n, b) => n + b.length, 0);
    for (const viewer of this.viewers) {
      if (viewer.waitingForKeyframe && viewer.socket.bufferedAmount < MAX_VIEWER_BACKLOG_BYTES / 2) {
        viewer.waitingForKeyframe = false;
        for (const bytes of start) this.sendBinary(viewer, bytes);
      }
      this.forward(viewer, keyframe);
    }
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
