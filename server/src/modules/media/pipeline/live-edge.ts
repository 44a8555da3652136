import type { EdgeModel, EdgePart, EdgeSegment } from '../delivery/hls/ll-playlist.ts';
import { dropOldest, LIVE_WINDOW_SEGMENTS, type Playlist } from './playlist.ts';
import { type Cut, partName } from './segmenter.ts';

/** How long the first segment of a run is taken to be (a keyframe a second) before one is finished. */
const FIRST_SEGMENT_GUESS_SEC = 1;
/** Segments before the open one whose parts the playlist lists (about three target durations). */
const LISTED_PART_SEGMENTS = 3;
/** Segments of the run whose parts stay in storage (a player may still fetch a part just unlisted). */
const KEPT_PART_SEGMENTS = 8;

/** Where the live edge goes: this instance's viewers and, over the bus, every other instance's. */
export interface EdgeSink {
  /** The playlist changed; `files` are new files it names (parts, the run's init segment). */
  update(model: EdgeModel, files: EdgeFile[]): void;
  /** Parts no playlist names any more: they leave memory and storage. */
  drop(names: string[]): void;
  /** Files the edge no longer serves that stay in storage (an init segment the replay needs). */
  forget(names: string[]): void;
  /** This instance no longer publishes the room (the stream ended, or another took it). */
  end(): void;
}

export interface EdgeFile {
  name: string;
  bytes: Buffer;
}

/** Files made before the live window was known wait for it; past this many, the oldest go. */
const MAX_PENDING_FILES = 64;

interface RunSegment {
  uri: string;
  seconds: number;
  parts: EdgePart[];
}

/**
 * The live edge of a room's stream on the publisher's instance: the stored live window (the
 * recorder's) plus the current run's segments and parts as the segmenter cuts them, handed to the
 * sink after every part. Media sequence numbers are the live window's, so they run on across
 * ffmpeg restarts and a publisher moving between instances.
 */
export class LiveEdge {
  private runId = '';
  private map = '';
  /** The run's segment being written, counted from 0. */
  private segment = 0;
  private completed: RunSegment[] = [];
  private open: EdgePart[] = [];
  private openSeconds = 0;
  private pending: EdgeFile[] = [];

  constructor(
    /** The stored live window; undefined while it is not known yet, or this instance no longer publishes. */
    private readonly window: () => Playlist | undefined,
    private readonly sink: EdgeSink,
  ) {}

  cut(runId: string, cut: Cut): void {
    if (runId !== this.runId) this.startRun(runId);
    if (cut.kind === 'init') {
      this.publish({ name: this.map, bytes: cut.bytes });
    } else if (cut.kind === 'part') {
      this.segment = cut.segment;
      this.open.push({ uri: this.uri(cut.name), seconds: cut.seconds, independent: cut.independent });
      this.openSeconds += cut.seconds;
      this.publish({ name: this.uri(cut.name), bytes: cut.bytes });
    } else {
      this.completed.push({ uri: this.uri(cut.name), seconds: cut.seconds, parts: this.open });
      this.open = [];
      this.openSeconds = 0;
      this.segment = cut.segment + 1;
      const gone = this.completed.splice(0, Math.max(0, this.completed.length - KEPT_PART_SEGMENTS));
      if (gone.length) this.sink.drop(gone.flatMap((segment) => segment.parts.map((part) => part.uri)));
      this.publish();
    }
  }

  /** Stops publishing (the sink ends); the parts still stored go. */
  end(): void {
    this.sink.drop([...this.completed.flatMap((segment) => segment.parts), ...this.open].map((p) => p.uri));
    this.completed = [];
    this.open = [];
    this.runId = '';
    this.pending = [];
    this.sink.end();
  }

  private startRun(runId: string) {
    if (this.runId) {
      this.sink.drop([...this.completed.flatMap((segment) => segment.parts), ...this.open].map((p) => p.uri));
      this.sink.forget([this.map]);
    }
    this.runId = runId;
    this.map = `${runId}-init.mp4`;
    this.segment = 0;
    this.completed = [];
    this.open = [];
    this.openSeconds = 0;
  }

  private uri(name: string) {
    return `${this.runId}-${name}`;
  }

  private publish(file?: EdgeFile) {
    if (file) this.pending.push(file);
    this.pending.splice(0, Math.max(0, this.pending.length - MAX_PENDING_FILES));
    const model = this.model();
    if (!model) return;
    this.sink.update(model, this.pending);
    this.pending = [];
  }

  private model(): EdgeModel | undefined {
    const stored = this.window();
    if (!stored) return undefined;
    const segments: EdgeSegment[] = stored.segments.map((segment) => ({ ...segment }));
    const listed = new Set(segments.map((segment) => segment.uri));
    // Segments finished here that the recorder has not stored yet follow the stored ones.
    for (const segment of this.completed) {
      if (listed.has(segment.uri)) continue;
      const previous = segments.at(-1)?.map ?? this.map;
      segments.push({
        uri: segment.uri,
        duration: segment.seconds,
        map: this.map,
        discontinuity: previous !== this.map,
      });
    }
    const playlist: Playlist = { ...stored, segments, ended: false };
    dropOldest(playlist, LIVE_WINDOW_SEGMENTS);
    const recent = new Map(
      this.completed.slice(-LISTED_PART_SEGMENTS).map((segment) => [segment.uri, segment]),
    );
    for (const segment of playlist.segments as EdgeSegment[]) {
      const parts = recent.get(segment.uri)?.parts;
      if (parts) segment.parts = parts;
    }
    const last = playlist.segments.at(-1)?.map ?? this.map;
    // The next part starts a new segment once the open one is as long as the last (a keyframe is due).
    const expected = this.completed.at(-1)?.seconds ?? FIRST_SEGMENT_GUESS_SEC;
    const next =
      this.open.length > 0 && this.openSeconds + 0.001 >= expected
        ? partName(this.segment + 1, 0)
        : partName(this.segment, this.open.length);
    return {
      sequence: playlist.sequence ?? 0,
      discontinuitySequence: playlist.discontinuitySequence ?? 0,
      segments: playlist.segments,
      open: { map: this.map, discontinuity: last !== this.map, parts: [...this.open] },
      hint: this.uri(next),
    };
  }
}
