/**
 * What the server sent one viewer, kept for the floor to send again: the media_reset text and the
 * init segment it joined with, then whole groups of live fragments (from a keyframe up to the next
 * keyframe at the end) with their offsets from the first, and the loop's length (first keyframe →
 * last keyframe): played in a loop, the same bytes in the same messages at the same rate.
 *
 * On disk: records of [u8 opcode][f64 offset ms][u32 length][payload], the reset, the init, then
 * the fragments; a last record of length 0 carries the loop's length as its offset.
 */

import { readFileSync, writeFileSync } from 'node:fs';

export interface Recording {
  reset: string;
  init: Buffer;
  fragments: Array<{ at: number; bytes: Buffer }>;
  loopMs: number;
}

export const recordingBytes = (r: Recording) => r.fragments.reduce((n, f) => n + f.bytes.length, 0);
/** Bytes per second of the loop. */
export const recordingRate = (r: Recording) => recordingBytes(r) / (r.loopMs / 1000);

function record(opcode: number, at: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(13);
  head.writeUInt8(opcode, 0);
  head.writeDoubleBE(at, 1);
  head.writeUInt32BE(payload.length, 9);
  return Buffer.concat([head, payload]);
}

export function writeRecording(file: string, r: Recording): void {
  writeFileSync(
    file,
    Buffer.concat([
      record(1, 0, Buffer.from(r.reset)),
      record(2, 0, r.init),
      ...r.fragments.map((f) => record(2, f.at, f.bytes)),
      record(0, r.loopMs, Buffer.alloc(0)),
    ]),
  );
}

export function readRecording(file: string): Recording {
  const data = readFileSync(file);
  const records: Array<{ opcode: number; at: number; payload: Buffer }> = [];
  for (let offset = 0; offset < data.length; ) {
    const length = data.readUInt32BE(offset + 9);
    records.push({
      opcode: data.readUInt8(offset),
      at: data.readDoubleBE(offset + 1),
      payload: data.subarray(offset + 13, offset + 13 + length),
    });
    offset += 13 + length;
  }
  const [reset, init, ...rest] = records;
  const end = rest.pop();
  if (!reset || !init || !end || end.opcode !== 0) throw new Error(`${file} is not a recording`);
  return {
    reset: reset.payload.toString(),
    init: init.payload,
    fragments: rest.map((f) => ({ at: f.at, bytes: f.payload })),
    loopMs: end.at,
  };
}
