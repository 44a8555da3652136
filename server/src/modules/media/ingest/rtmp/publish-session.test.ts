import { describe, expect, it } from 'vitest';
import { encodeFlvTag, type FlvItem, FlvReader } from '../../containers/flv.ts';
import { encodeAmf0 } from '../../rtmp-protocol/amf0.ts';
import { MessageType } from '../../rtmp-protocol/chunks.ts';
import { type PublishEnd, PublishSession } from './publish-session.ts';

function session() {
  const drops: string[] = [];
  const ends: PublishEnd[] = [];
  const bytes: Buffer[] = [];
  const publish = new PublishSession(
    { id: 'stream-1', app: 'live', remoteAddress: '127.0.0.1', remotePort: 5000, flashVer: undefined },
    (reason) => drops.push(reason),
  );
  publish.on('data', (chunk) => bytes.push(chunk));
  publish.on('end', (end) => ends.push(end));
  const items = (): FlvItem[] => new FlvReader().push(Buffer.concat(bytes));
  return { publish, drops, ends, items };
}

const message = (type: number, timestamp: number, payload: Buffer) => ({
  type,
  streamId: 1,
  timestamp,
  payload,
});

describe('PublishSession', () => {
  it('writes onMetaData without its @setDataFrame wrapper, with header flags from its codec ids', () => {
    const { publish, items } = session();
    const metadata = encodeAmf0('onMetaData', { videocodecid: 7, width: 1280 });
    publish.write(message(MessageType.dataAmf0, 0, Buffer.concat([encodeAmf0('@setDataFrame'), metadata])));
    publish.write(message(MessageType.dataAmf0, 10, encodeAmf0('@clearDataFrame', 'onMetaData')));
    publish.write(
      message(MessageType.dataAmf3, 20, Buffer.concat([Buffer.of(0), encodeAmf0('onCuePoint', 1)])),
    );
    publish.write(message(MessageType.video, 40, Buffer.of(0x17, 1, 0, 0, 0, 0xaa)));
    publish.write(message(MessageType.audio, 50, Buffer.alloc(0))); // empty: skipped
    expect(items()).toEqual([
      expect.objectContaining({ kind: 'header', flags: 1 }),
      expect.objectContaining({ kind: 'tag', type: 18, timestamp: 0, data: metadata }),
      expect.objectContaining({ kind: 'tag', type: 18, timestamp: 20, data: encodeAmf0('onCuePoint', 1) }),
      expect.objectContaining({ kind: 'tag', type: 9, timestamp: 40 }),
    ]);
  });

  it('splits an aggregate message into its tags, timed from the message', () => {
    const { publish, items } = session();
    const aggregate = Buffer.concat([
      encodeFlvTag(9, 1000, Buffer.of(0x17, 1, 0, 0, 0, 1)),
      encodeFlvTag(8, 1010, Buffer.of(0xaf, 1, 2)),
      encodeFlvTag(9, 1033, Buffer.of(0x27, 1, 0, 0, 0, 3)),
    ]);
    publish.write(message(22, 5000, aggregate));
    const tags = items().flatMap((item) => (item.kind === 'tag' ? [item] : []));
    expect(tags.map(({ type, timestamp }) => ({ type, timestamp }))).toEqual([
      { type: 9, timestamp: 5000 },
      { type: 8, timestamp: 5010 },
      { type: 9, timestamp: 5033 },
    ]);
    expect(items()[0]).toMatchObject({ kind: 'header', flags: 5 });
  });

  it('ends once; kick() drops the publisher; nothing is written after the end', () => {
    const { publish, drops, ends, items } = session();
    publish.kick('key rotated');
    publish.kick('again');
    publish.finish({ reason: 'disconnected' });
    publish.write(message(MessageType.video, 0, Buffer.of(0x17, 1, 0, 0, 0)));
    expect(ends).toEqual([{ reason: 'kicked', detail: 'key rotated' }]);
    expect(drops).toEqual(['key rotated']);
    expect(publish.ended).toBe(true);
    expect(items()).toEqual([]);
  });
});
