/**
 * AMF0, the encoding of RTMP's command and data messages (Adobe's AMF0 specification): numbers,
 * booleans, strings, objects, null and arrays, which is all an RTMP publisher sends and reads.
 */
export type Amf0Value = number | boolean | string | null | undefined | Amf0Value[] | Amf0Object;
export interface Amf0Object {
  [key: string]: Amf0Value;
}

const NUMBER = 0x00;
const BOOLEAN = 0x01;
const STRING = 0x02;
const OBJECT = 0x03;
const NULL = 0x05;
const UNDEFINED = 0x06;
const REFERENCE = 0x07;
const ECMA_ARRAY = 0x08;
const OBJECT_END = 0x09;
const STRICT_ARRAY = 0x0a;
const DATE = 0x0b;
const LONG_STRING = 0x0c;
const TYPED_OBJECT = 0x10;

function encodeKey(key: string): Buffer {
  const text = Buffer.from(key, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(text.length);
  return Buffer.concat([length, text]);
}

function encodeValue(value: Amf0Value): Buffer {
  if (value === null) return Buffer.of(NULL);
  if (value === undefined) return Buffer.of(UNDEFINED);
  if (typeof value === 'number') {
    const out = Buffer.alloc(9);
    out[0] = NUMBER;
    out.writeDoubleBE(value, 1);
    return out;
  }
  if (typeof value === 'boolean') return Buffer.of(BOOLEAN, value ? 1 : 0);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    if (text.length <= 0xffff) return Buffer.concat([Buffer.of(STRING), encodeKey(value)]);
    const head = Buffer.alloc(5);
    head[0] = LONG_STRING;
    head.writeUInt32BE(text.length, 1);
    return Buffer.concat([head, text]);
  }
  if (Array.isArray(value)) {
    const head = Buffer.alloc(5);
    head[0] = STRICT_ARRAY;
    head.writeUInt32BE(value.length, 1);
    return Buffer.concat([head, ...value.map(encodeValue)]);
  }
  const parts: Buffer[] = [Buffer.of(OBJECT)];
  for (const [key, item] of Object.entries(value)) parts.push(encodeKey(key), encodeValue(item));
  parts.push(Buffer.of(0, 0, OBJECT_END));
  return Buffer.concat(parts);
}

/** The AMF0 encoding of these values, one after another (a command's name, id and arguments). */
export function encodeAmf0(...values: Amf0Value[]): Buffer {
  return Buffer.concat(values.map(encodeValue));
}

/** Reads AMF0 values from a buffer; throws on a truncated or unknown value. */
class Amf0Reader {
  private offset = 0;
  constructor(private readonly buffer: Buffer) {}

  get done(): boolean {
    return this.offset >= this.buffer.length;
  }

  private take(count: number): Buffer {
    if (this.offset + count > this.buffer.length) throw new Error('truncated AMF0 value');
    const slice = this.buffer.subarray(this.offset, this.offset + count);
    this.offset += count;
    return slice;
  }

  private key(): string {
    return this.take(this.take(2).readUInt16BE()).toString('utf8');
  }

  private properties(into: Amf0Object): Amf0Object {
    for (;;) {
      const key = this.key();
      if (key === '' && this.buffer[this.offset] === OBJECT_END) {
        this.offset += 1;
        return into;
      }
      into[key] = this.value();
    }
  }

  value(): Amf0Value {
    const marker = this.take(1)[0];
    switch (marker) {
      case NUMBER:
        return this.take(8).readDoubleBE();
      case BOOLEAN:
        return this.take(1)[0] !== 0;
      case STRING:
        return this.key();
      case LONG_STRING:
        return this.take(this.take(4).readUInt32BE()).toString('utf8');
      case OBJECT:
        return this.properties({});
      case TYPED_OBJECT:
        this.key(); // the class name
        return this.properties({});
      case ECMA_ARRAY:
        this.take(4); // an approximate count; the end marker is what counts
        return this.properties({});
      case STRICT_ARRAY: {
        const count = this.take(4).readUInt32BE();
        const items: Amf0Value[] = [];
        for (let i = 0; i < count; i += 1) items.push(this.value());
        return items;
      }
      case DATE:
        return this.take(10).readDoubleBE(); // milliseconds; the time zone is unused
      case NULL:
        return null;
      case UNDEFINED:
        return undefined;
      case REFERENCE:
        this.take(2);
        return undefined;
      default:
        throw new Error(`unknown AMF0 marker ${marker}`);
    }
  }
}

/** Every AMF0 value in the buffer, in order. */
export function decodeAmf0(buffer: Buffer): Amf0Value[] {
  const reader = new Amf0Reader(buffer);
  const values: Amf0Value[] = [];
  while (!reader.done) values.push(reader.value());
  return values;
}
