import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/client.ts';
import { eventually } from '../../../test/eventually.ts';
import { buildTestApp, createTestDatabase, signUp } from '../../../test/test-app.ts';

let database: Database;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'ss-tidy-'));
});
afterAll(async () => {
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A stream that ended `daysAgo` with its replay in `replayState`, and two recorded parts. */
async function endedStream(ownerId: string, room: string, daysAgo: number, replayState: string | null) {
  const { rows } = await database.pool.query<{ id: string }>(
    `insert into streams (owner_id, room_name, title, duration_sec, started_at, ended_at, replay_state)
     values ($1, $2, 'Crate digging', 60, now() - make_interval(days => $3) - interval '1 hour',
       now() - make_interval(days => $3), $4) returning id`,
    [ownerId, room, daysAgo, replayState],
  );
  const streamId = rows[0]?.id;
  await database.pool.query(
    `insert into stream_parts (stream_id, id, instance_id, closed_at) values ($1, 'p1', 'gone', now()), ($1, 'p2', 'gone', now())`,
    [streamId],
  );
}

const partsOf = async (room: string) =>
  (
    await database.pool.query<{ id: string }>(
      'select p.id from stream_parts p join streams s on s.id = p.stream_id where s.room_name = $1 order by p.id',
      [room],
    )
  ).rows.map((row) => row.id);

describe('the media sweep tidies what nobody reads any more', () => {
  it('at start: old settled streams lose their part rows, and a killed run’s working folder goes', async () => {
    const first = await buildTestApp({}, { database, autoEnd: false, viewerSampling: false });
    const seller = await signUp(first.app);
    await first.close();
    await endedStream(seller.user.id, 'tidy-old-ready', 8, 'ready');
    await endedStream(seller.user.id, 'tidy-old-empty', 9, 'empty');
    // Not settled (its replay was never made): its parts are all that could make it.
    await endedStream(seller.user.id, 'tidy-old-unmade', 8, null);
    // Settled a day ago: kept for a week (which instance recorded what).
    await endedStream(seller.user.id, 'tidy-recent', 1, 'ready');

    // A part folder a killed instance left an hour ago, and a live one.
    const staging = path.join(dataDir, 'live');
    const abandoned = path.join(staging, 'tidy-recent', 'mg3k2x1a0123456789ab');
    const live = path.join(staging, 'tidy-live', 'mg3k2y9z0123456789ab');
    for (const dir of [abandoned, live]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'seg-00003.m4s'), 'segment');
    }
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(abandoned, hourAgo, hourAgo);

    const next = await buildTestApp({ dataDir }, { database, autoEnd: false, viewerSampling: false });
    try {
      await eventually(
        'old settled streams’ parts pruned',
        () => partsOf('tidy-old-ready'),
        (ids) => ids.length === 0,
      );
      expect(await partsOf('tidy-old-empty')).toEqual([]);
      expect(await partsOf('tidy-old-unmade')).toEqual(['p1', 'p2']);
      expect(await partsOf('tidy-recent')).toEqual(['p1', 'p2']);
      await eventually(
        'the abandoned folder removed',
        async () => existsSync(abandoned),
        (there) => !there,
      );
      expect(existsSync(path.join(live, 'seg-00003.m4s'))).toBe(true);
    } finally {
      await next.close();
    }
  });
});
