import { randomBytes } from 'node:crypto';
import {
  type FileHandle,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  stat,
  unlink,
  utimes,
} from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { isRunning, ownIdentity } from '../../db/process-identity.ts';
import type { AcceptedMessage } from './repo.ts';

type Line = { accepted: AcceptedMessage } | { done: number[] };

/** A journal nobody has written to or touched for this long belongs to a server that is gone. */
export const STALE_MS = 30_000;
/** A live server touches its journals this often, so others never take them for stale. */
const TOUCH_MS = 5000;
/** A file this large is closed for appends; a new one takes over, and the old one goes once all its messages are done. */
const ROTATE_BYTES = 4 * 1024 * 1024;
const SUFFIX = '.jsonl';

const safeHost = () => hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';

/** This process in a journal's name: its pid and when it started (a reused pid is another process). */
const self = ownIdentity();
const selfName = `${self.pid}.${self.startTicks ?? 'x'}`;

/** A journal's writer, from its name `<host>~<pid>.<start ticks>~<random>.jsonl`. */
function ownerOf(file: string): { host: string; pid: number; startTicks: string | null } | undefined {
  const match = /^(.+)~(\d+)\.(\d+|x)~[0-9a-f]+\.jsonl$/.exec(file);
  if (!match) return undefined;
  return {
    host: match[1] ?? '',
    pid: Number(match[2]),
    startTicks: match[3] === 'x' ? null : (match[3] ?? null),
  };
}

function parseLines(text: string): Line[] {
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    if (!raw) continue;
    try {
      const line = JSON.parse(raw) as Line;
      if ('accepted' in line && typeof line.accepted?.id === 'number') lines.push(line);
      else if ('done' in line && Array.isArray(line.done)) lines.push(line);
    } catch {
      // The torn last line of a write the process died in: it was never fsynced, so never broadcast.
    }
  }
  return lines;
}

interface OwnFile {
  name: string;
  /** Accepted messages of this file that are not done yet. */
  open: Set<number>;
}

/**
 * The chat journal (ADR 0019): each accepted message is appended to a file of this server under
 * DATA_DIR/chat-journal and fsynced before it is broadcast; a `done` line follows once the message
 * is in the database (or was deleted before it got there). Appends that arrive while an fsync runs
 * share the next one. A server that starts, and every 15 s after, takes over the journals of
 * servers that are gone (on its host: their pid no longer runs the process that wrote them; or untouched for STALE_MS) and hands back
 * the messages in them that are not done.
 */
export class ChatJournal {
  private readonly files: OwnFile[] = [];
  private readonly fileOf = new Map<number, OwnFile>();
  private handle: FileHandle | undefined;
  private current: OwnFile | undefined;
  private size = 0;
  private buffer: string[] = [];
  private waiting: Array<{ sync: boolean; resolve: () => void; reject: (error: unknown) => void }> = [];
  private flushing = false;
  private readonly touchTimer: NodeJS.Timeout;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly host: string,
  ) {
    this.touchTimer = setInterval(() => void this.touch(), TOUCH_MS);
    this.touchTimer.unref();
  }

  static async open(dataDir: string): Promise<ChatJournal> {
    const dir = path.join(dataDir, 'chat-journal');
    await mkdir(dir, { recursive: true });
    const journal = new ChatJournal(dir, safeHost());
    await journal.startFile();
    return journal;
  }

  /** Resolves once the message is on disk (fsynced). */
  accepted(message: AcceptedMessage): Promise<void> {
    const file = this.current;
    if (!file) return Promise.reject(new Error('the chat journal is closed'));
    file.open.add(message.id);
    this.fileOf.set(message.id, file);
    return this.write({ accepted: message }, true).catch((error) => {
      file.open.delete(message.id);
      this.fileOf.delete(message.id);
      throw error;
    });
  }

  /**
   * Marks messages done: saved in the database, or dropped. A file whose messages are all done
   * and that takes no more appends is removed. The line is fsynced with the next accepted message
   * unless `durable` (a withdrawn message, which a replay must never save); a process that dies
   * keeps it either way (it is in the page cache), and a replay of a saved message writes nothing.
   */
  async done(ids: number[], durable = false): Promise<void> {
    if (ids.length === 0) return;
    await this.write({ done: ids }, durable);
    for (const id of ids) {
      const file = this.fileOf.get(id);
      this.fileOf.delete(id);
      file?.open.delete(id);
      if (file && file !== this.current && file.open.size === 0) await this.remove(file);
    }
  }

  /**
   * Takes over the journals of servers that are gone and returns their messages that are not done,
   * oldest first, after writing them into this server's journal (so a crash from here on loses
   * nothing either).
   */
  async adoptOrphans(): Promise<AcceptedMessage[]> {
    const names = (await readdir(this.dir)).filter((name) => name.endsWith(SUFFIX));
    const ours = new Set(this.files.map((file) => file.name));
    const adopted: string[] = [];
    for (const name of names) {
      if (ours.has(name) || !(await this.isOrphan(name))) continue;
      // Claimed by renaming it to a name of ours: of two servers racing, one rename wins.
      const claimed = this.newName();
      try {
        await utimes(path.join(this.dir, name), new Date(), new Date());
        await rename(path.join(this.dir, name), path.join(this.dir, claimed));
        adopted.push(claimed);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    if (adopted.length === 0) return [];
    const accepted = new Map<number, AcceptedMessage>();
    const done = new Set<number>();
    for (const name of adopted) {
      for (const line of parseLines(await readFile(path.join(this.dir, name), 'utf8'))) {
        if ('accepted' in line) accepted.set(line.accepted.id, line.accepted);
        else for (const id of line.done) done.add(id);
      }
    }
    const unsent = [...accepted.values()]
      .filter((message) => !done.has(message.id))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
    await Promise.all(unsent.map((message) => this.accepted(message)));
    for (const name of adopted) await unlink(path.join(this.dir, name));
    await this.syncDir();
    return unsent;
  }

  /** Waits for pending appends; the files stay for the next start to replay what is not done. */
  async close(): Promise<void> {
    if (this.closed) return;
    clearInterval(this.touchTimer);
    await this.write(undefined, true).catch(() => {});
    this.closed = true;
    this.current = undefined;
    await this.handle?.close();
    this.handle = undefined;
  }

  private async isOrphan(name: string): Promise<boolean> {
    const owner = ownerOf(name);
    // On this host a writer is gone when its pid no longer runs the process that started then; a
    // file of this pid that is not this server's is a previous process's (a restarted container).
    if (
      owner &&
      owner.host === this.host &&
      (owner.pid === self.pid || !isRunning({ ...owner, bootId: null }))
    )
      return true;
    try {
      return Date.now() - (await stat(path.join(this.dir, name))).mtimeMs > STALE_MS;
    } catch {
      return false;
    }
  }

  private newName(): string {
    return `${this.host}~${selfName}~${randomBytes(6).toString('hex')}${SUFFIX}`;
  }

  private async startFile(): Promise<void> {
    const file: OwnFile = { name: this.newName(), open: new Set() };
    const handle = await open(path.join(this.dir, file.name), 'a');
    await this.syncDir(); // the new file's name is on disk before anything depends on it
    const previous = { handle: this.handle, file: this.current };
    this.handle = handle;
    this.current = file;
    this.size = 0;
    this.files.push(file);
    await previous.handle?.close();
    if (previous.file && previous.file.open.size === 0) await this.remove(previous.file);
  }

  private async remove(file: OwnFile): Promise<void> {
    const at = this.files.indexOf(file);
    if (at >= 0) this.files.splice(at, 1);
    await unlink(path.join(this.dir, file.name)).catch(() => {});
  }

  private async syncDir(): Promise<void> {
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }

  /** Appends a line (none: a barrier), resolved once written, and fsynced when `sync`. */
  private write(line: Line | undefined, sync: boolean): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the chat journal is closed'));
    return new Promise((resolve, reject) => {
      if (line) this.buffer.push(`${JSON.stringify(line)}\n`);
      this.waiting.push({ sync, resolve, reject });
      void this.flush();
    });
  }

  /**
   * One write for everything appended since the last one, and one fsync if any of it asked
   * (group commit).
   */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.waiting.length > 0) {
        const text = this.buffer.join('');
        const waiting = this.waiting;
        this.buffer = [];
        this.waiting = [];
        try {
          const handle = this.handle;
          if (!handle) throw new Error('the chat journal is closed');
          if (text) {
            await handle.write(text);
            this.size += Buffer.byteLength(text);
          }
          if (waiting.some((waiter) => waiter.sync)) await handle.datasync();
          for (const waiter of waiting) waiter.resolve();
        } catch (error) {
          for (const waiter of waiting) waiter.reject(error);
        }
        // A file that cannot be started now is tried again after the next append.
        if (this.size > ROTATE_BYTES && !this.closed) await this.startFile().catch(() => {});
      }
    } finally {
      this.flushing = false;
    }
  }

  private async touch(): Promise<void> {
    const now = new Date();
    for (const file of this.files) {
      await utimes(path.join(this.dir, file.name), now, now).catch(() => {});
    }
  }
}
