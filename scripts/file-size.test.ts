import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED, checkFileSizes, LIMIT, ROOTS } from './file-size.mjs';

/** The file-size step of `npm run lint` (scripts/file-size.mjs), checked on a small tree. */

let tree: string;
/** Writes a file of the fixture tree with `lines` lines. */
function file(name: string, lines: number) {
  const full = path.join(tree, name);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, 'export const x = 1;\n'.repeat(lines));
}

beforeAll(() => {
  tree = mkdtempSync(path.join(tmpdir(), 'ss-file-size-'));
  file('server/src/platform/fine.ts', LIMIT);
  file('server/src/platform/long.ts', LIMIT + 1);
  file('web/src/features/room/long-page.tsx', LIMIT + 30);
  file('bench/long-bench.mjs', LIMIT + 2);
  file('scripts/long-tool.ts', LIMIT + 3);
  // Not counted: tests, other extensions, other folders, dependencies.
  file('server/src/modules/chat/chat.test.ts', LIMIT * 2);
  file('e2e/shop.e2e.test.ts', LIMIT * 2);
  file('web/src/app/layout.test.tsx', LIMIT * 2);
  file('contract/src/data.json', LIMIT * 2);
  file('docs/long.ts', LIMIT * 2);
  file('e2e/node_modules/dep/index.mjs', LIMIT * 2);
  // Allowed: a file by name, and a folder.
  file('server/src/db/schema.ts', LIMIT * 2);
  file('server/src/seed/items/vinyl.ts', LIMIT + 10);
  file('server/src/split-since.ts', 10);
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('file sizes', () => {
  it('refuse source files over the limit, count neither tests nor other files, and honour the allow-list', () => {
    const allowed = {
      'server/src/db/schema.ts': 'one schema',
      'server/src/seed/items/': 'data',
      'server/src/split-since.ts': 'was long',
      'server/src/gone/': 'folder removed',
    };
    expect(checkFileSizes(tree, { roots: ROOTS, allowed })).toEqual({
      tooLong: [
        { file: 'bench/long-bench.mjs', lines: LIMIT + 2 },
        { file: 'scripts/long-tool.ts', lines: LIMIT + 3 },
        { file: 'server/src/platform/long.ts', lines: LIMIT + 1 },
        { file: 'web/src/features/room/long-page.tsx', lines: LIMIT + 30 },
      ],
      unneeded: ['server/src/split-since.ts', 'server/src/gone/'],
    });
  });

  it('gives every exception of the real allow-list a reason', () => {
    for (const [entry, reason] of Object.entries(ALLOWED)) expect(reason.length, entry).toBeGreaterThan(5);
  });
});
