/**
 * No source file over 400 lines: one step of `npm run lint` (`npm run file-size`), checked by
 * scripts/file-size.test.ts. A file that grows past the limit is split along its seams, or named
 * in ALLOWED below with the reason it stays whole.
 *
 * Counted: .ts, .tsx and .mjs files under ROOTS, lines as `wc -l` counts them. Test files
 * (*.test.ts, *.test.tsx, *.e2e.test.ts) are not counted: a test file reads as one story of one
 * area, and thirteen were longer than 400 lines when this check came. Test harness files
 * (server/src/test/, e2e's helpers, bench/support/) are source and are counted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const LIMIT = 400;
export const ROOTS = ['server/src', 'web/src', 'contract/src', 'e2e', 'bench', 'scripts'];
const SOURCE = /\.(ts|tsx|mjs)$/;
const TEST = /\.test\.(ts|tsx|mjs)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'results', 'screenshots']);

/** Files (exact paths) and folders (ending in /) that may be longer, each with its reason. */
export const ALLOWED = {
  'server/src/db/schema.ts': 'the Drizzle schema: every table in one file, as drizzle-kit reads it',
  'server/src/cli/seed/items/': 'seed data: the word lists of one category per file',
};

/** Every source file under `roots` (relative to `root`, with forward slashes), tests left out. */
function sourceFiles(root, roots) {
  const found = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      return; // a root that does not exist
    }
    for (const entry of entries) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) walk(rel);
      } else if (SOURCE.test(entry.name) && !TEST.test(entry.name)) {
        found.push(rel);
      }
    }
  };
  for (const dir of roots) walk(dir);
  return found.sort();
}

/** Lines as `wc -l` counts them (newlines), plus a last line without one. */
function lineCount(file) {
  const text = readFileSync(file, 'utf8');
  const newlines = text.split('\n').length - 1;
  return text.length > 0 && !text.endsWith('\n') ? newlines + 1 : newlines;
}

const allowedBy = (file, allowed) =>
  Object.keys(allowed).find((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));

/**
 * The files over `limit` lines that ALLOWED does not name (`tooLong`), and the ALLOWED entries
 * that no longer name a long file (`unneeded`: a file split or gone, a folder gone).
 */
export function checkFileSizes(root, { roots = ROOTS, limit = LIMIT, allowed = ALLOWED } = {}) {
  const files = sourceFiles(root, roots);
  const long = files
    .map((file) => ({ file, lines: lineCount(path.join(root, file)) }))
    .filter((f) => f.lines > limit);
  const tooLong = long.filter(({ file }) => !allowedBy(file, allowed));
  const unneeded = Object.keys(allowed).filter((entry) =>
    entry.endsWith('/')
      ? !files.some((file) => file.startsWith(entry))
      : !long.some(({ file }) => file === entry),
  );
  return { tooLong, unneeded };
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { tooLong, unneeded } = checkFileSizes(root);
  for (const entry of unneeded) {
    console.warn(
      `scripts/file-size.mjs: ALLOWED names ${entry}, which holds no file over ${LIMIT} lines now: remove the entry`,
    );
  }
  if (tooLong.length === 0) return;
  for (const { file, lines } of tooLong) console.error(`${file}: ${lines} lines (over ${LIMIT})`);
  console.error(
    `Split ${tooLong.length === 1 ? 'it' : 'them'} along ${tooLong.length === 1 ? 'its' : 'their'} seams, ` +
      'or name the file in ALLOWED in scripts/file-size.mjs with the reason it stays whole.',
  );
  process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
