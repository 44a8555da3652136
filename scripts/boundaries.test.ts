import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type IViolation } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The import rules `npm run lint` enforces (.dependency-cruiser.cjs), checked on a small tree. */
const require = createRequire(import.meta.url);
const config = require('../.dependency-cruiser.cjs') as {
  forbidden: object[];
  options: Record<string, unknown>;
};

async function violations(baseDir: string): Promise<string[]> {
  const result = await cruise(['server/src', 'web/src', 'contract/src', 'e2e', 'bench'], {
    ...config.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: config.forbidden } as never,
  });
  if (typeof result.output === 'string') throw new Error('expected a cruise result');
  return result.output.summary.violations.map((v: IViolation) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

let tree: string;
/** Writes a file of the fixture tree: each import line becomes a real import of a real file. */
function file(name: string, imports: string[] = []) {
  const full = path.join(tree, name);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(
    full,
    `${imports.map((from, i) => `import * as i${i} from '${from}';\nvoid i${i};`).join('\n')}\nexport const x = 1;\n`,
  );
}

beforeAll(() => {
  tree = mkdtempSync(path.join(tmpdir(), 'ss-boundaries-'));
  file('server/src/modules/streams/repo.ts');
  file('server/src/modules/streams/service.ts', ['./repo.ts']);
  file('server/src/modules/shop/access.ts', ['../streams/service.ts']);
  file('server/src/modules/shop/lineup.ts', ['../streams/repo.ts']);
  file('server/src/modules/chat/repo.ts');
  file('server/src/modules/chat/routes.ts', ['./repo.ts']);
  file('server/src/platform/sessions.ts', ['../modules/streams/service.ts']);
  file('server/src/platform/sessions.test.ts', ['../modules/streams/service.ts']);
  file('web/src/features/catalog/product-card.tsx');
  file('web/src/features/room/room-page.tsx', ['../catalog/product-card.tsx', '../../lib/use-now.ts']);
  file('web/src/lib/use-now.ts');
  file('web/src/lib/links.ts', ['../features/room/room-page.tsx']);
  file('web/src/app/routes.tsx', ['../features/room/room-page.tsx']);
  file('contract/src/live.ts', ['../../server/src/modules/streams/service.ts']);
  file('server/src/modules/chat/plugin.ts', ['./routes.ts']);
  file('server/src/app.ts', [
    './modules/chat/plugin.ts',
    './platform/sessions.ts',
    './modules/chat/routes.ts',
  ]);
  file('contract/src/a.ts', ['./b.ts']);
  file('contract/src/b.ts', ['./a.ts']);
  // db/ stands alone; its tests may use the harness; cli/ composes db/, platform/ and modules,
  // and platform/ never imports cli/.
  file('server/src/db/client.ts');
  file('server/src/db/pool.ts', ['./client.ts']);
  file('server/src/db/migrate.ts', ['./client.ts', '../platform/sessions.ts']);
  file('server/src/db/client.test.ts', ['./client.ts', '../test/test-app.ts']);
  file('server/src/db/pool.test.ts', ['./pool.ts', '../platform/sessions.ts']);
  file('server/src/cli/seed.ts', [
    '../db/client.ts',
    '../platform/sessions.ts',
    '../modules/streams/service.ts',
  ]);
  file('server/src/platform/shutdown.ts', ['../cli/seed.ts']);
  // e2e/ and bench/ reach the server through its test-support entry only.
  file('server/src/test/test-app.ts', ['../app.ts']);
  file('server/src/test/support.ts', ['./test-app.ts', '../modules/streams/repo.ts']);
  file('e2e/shop.e2e.test.ts', ['../server/src/test/support.ts']);
  file('bench/chat.ts', ['../server/src/test/support.ts', '../server/src/app.ts']);
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('import boundaries', () => {
  it('refuse each kind of crossing, and allow entry files, shared layers and the app layer', async () => {
    expect((await violations(tree)).sort()).toEqual([
      'app-registers-plugins: server/src/app.ts → server/src/modules/chat/routes.ts',
      'contract-stands-alone: contract/src/live.ts → server/src/modules/streams/service.ts',
      'db-stands-alone: server/src/db/migrate.ts → server/src/platform/sessions.ts',
      'db-tests-through-harness: server/src/db/pool.test.ts → server/src/platform/sessions.ts',
      'no-cycles: contract/src/a.ts → contract/src/b.ts',
      'outside-through-test-support: bench/chat.ts → server/src/app.ts',
      'platform-below-modules: server/src/platform/sessions.ts → server/src/modules/streams/service.ts',
      'platform-below-modules: server/src/platform/shutdown.ts → server/src/cli/seed.ts',
      'routes-through-services: server/src/modules/chat/routes.ts → server/src/modules/chat/repo.ts',
      'server-module-internals: server/src/modules/shop/lineup.ts → server/src/modules/streams/repo.ts',
      'web-feature-internals: web/src/features/room/room-page.tsx → web/src/features/catalog/product-card.tsx',
      'web-shared-below-features: web/src/lib/links.ts → web/src/features/room/room-page.tsx',
    ]);
  });
});
