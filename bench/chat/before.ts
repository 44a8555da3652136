/**
 * The server's source at another git commit, for the chat bench's "before" rows in the same run
 * (`--before=<ref>`): `git archive` of contract/ and server/ into a temp folder whose node_modules
 * are this checkout's, but with the workspace packages (@streamshop/*) at the extracted ones.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Checkout {
  /** The folder holding contract/ and server/ at the ref. */
  root: string;
  /** The ref's commit, short. */
  commit: string;
  remove(): void;
}

export function checkoutAt(ref: string): Checkout {
  const commit = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], { cwd: root })
    .toString()
    .trim();
  const dir = mkdtempSync(path.join(tmpdir(), `ss-chat-before-${commit}-`));
  try {
    const archive = execFileSync(
      'git',
      ['archive', '--format=tar', commit, 'contract', 'server', 'tsconfig.base.json', 'package.json'],
      { cwd: root, maxBuffer: 512 * 1024 * 1024 },
    );
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    const modules = path.join(dir, 'node_modules');
    mkdirSync(path.join(modules, '@streamshop'), { recursive: true });
    for (const entry of readdirSync(path.join(root, 'node_modules'))) {
      if (entry === '@streamshop') continue;
      symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
    }
    for (const workspace of ['contract', 'server']) {
      symlinkSync(path.join(dir, workspace), path.join(modules, '@streamshop', workspace));
    }
    symlinkSync(path.join(root, 'server', 'node_modules'), path.join(dir, 'server', 'node_modules'));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { root: dir, commit, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
