/**
 * What a room's relay does, as data, and the unit every stage passes on: the containers' splitters
 * (containers/) make these of what the publisher sends (the pipeline's input) and of the
 * pipeline's fMP4 (its output). The publisher's instance applies the output's to its own viewers
 * and sends them to the other instances, which apply the same events to theirs. So every
 * instance's relay holds the same init segment and group.
 */
export type RelayEvent =
  /** A (re)connecting publisher: everything restarts. */
  | { kind: 'reset'; mimeType: string }
  /** Everything before the first Cluster. */
  | { kind: 'init'; bytes: Buffer }
  /** A video keyframe: `start` (a Cluster header and its Timecode) then the keyframe block. */
  | { kind: 'group'; start: Buffer[]; keyframe: Buffer }
  | { kind: 'append'; bytes: Buffer }
  /** The publisher went away. */
  | { kind: 'idle' }
  /** The relay's whole state, for an instance that starts serving a room mid-stream. */
  | { kind: 'snapshot'; events: RelayEvent[] }
  /** An instance asks the publisher's instance for a snapshot. */
  | { kind: 'sync' };

const KINDS = ['reset', 'init', 'group', 'append', 'idle', 'snapshot', 'sync'] as const;

/** Frame: kind (1 byte), sender id (length-prefixed), then length-prefixed parts. */
function frame(kind: RelayEvent['kind'], sender: string, parts: Buffer[]): Buffer {
  const head = Buffer.alloc(1);
  head.writeUInt8(KINDS.indexOf(kind));
  const all = [Buffer.from(sender), ...parts];
  const out: Buffer[] = [head];
  for (const part of all) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(part.length);
    out.push(length, part);
  }
  return Buffer.concat(out);
}

function partsOf(event: RelayEvent): Buffer[] {
  switch (event.kind) {
    case 'reset':
      return [Buffer.from(event.mimeType)];
    case 'init':
    case 'append':
      return [event.bytes];
    case 'group':
      return [Buffer.concat(event.start), event.keyframe];
    case 'snapshot':
      return event.events.map((inner) => encodeRelayEvent(inner, ''));
    case 'idle':
    case 'sync':
      return [];
  }
}

export function encodeRelayEvent(event: RelayEvent, sender: string): Buffer {
  return frame(event.kind, sender, partsOf(event));
}

/** Decodes a frame; undefined for anything malformed (it never throws on bad input). */
export function decodeRelayEvent(buffer: Buffer): { sender: string; event: RelayEvent } | undefined {
  if (buffer.length < 1) return undefined;
  const kind = KINDS[buffer.readUInt8(0)];
  const parts: Buffer[] = [];
  let offset = 1;
  while (offset < buffer.length) {
    if (offset + 4 > buffer.length) return undefined;
    const length = buffer.readUInt32BE(offset);
    offset += 4;
    if (offset + length > buffer.length) return undefined;
    parts.push(buffer.subarray(offset, offset + length));
    offset += length;
  }
  const [senderBytes, ...rest] = parts;
  if (!kind || !senderBytes) return undefined;
  const sender = senderBytes.toString();
  const [a, b] = rest;
  switch (kind) {
    case 'reset':
      return a ? { sender, event: { kind, mimeType: a.toString() } } : undefined;
    case 'init':
    case 'append':
      return a ? { sender, event: { kind, bytes: a } } : undefined;
    case 'group':
      return a && b ? { sender, event: { kind, start: a.length ? [a] : [], keyframe: b } } : undefined;
    case 'snapshot': {
      const events: RelayEvent[] = [];
      for (const part of rest) {
        const inner = decodeRelayEvent(part);
        if (!inner) return undefined;
        events.push(inner.event);
      }
      return { sender, event: { kind, events } };
    }
    case 'idle':
    case 'sync':
      return { sender, event: { kind } };
  }
}
