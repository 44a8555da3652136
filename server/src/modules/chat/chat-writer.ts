import type { ChatMessage } from '@streamshop/contract/live.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { ChatJournal } from './journal.ts';
import { MessageIds } from './message-ids.ts';
import { type AcceptedMessage, messageAuthor, saveMessages } from './repo.ts';

/** Messages written in one statement at most. */
const BATCH_SIZE = 500;
/** A failed write is tried again after this, doubling up to RETRY_MAX_MS. */
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5000;
/** Journals of servers that are gone are looked for this often (and at start). */
const ADOPT_EVERY_MS = 15_000;
/** How long a delete looks in the database for a message another instance accepted and has not saved yet. */
const AUTHOR_WAIT_MS = 2000;

export const toChatMessage = (message: AcceptedMessage): ChatMessage => ({
  type: 'chat_message',
  id: message.id,
  username: message.username,
  message: message.message,
  timestamp: message.createdAt,
});

/** SQLSTATE classes 22 (data exception) and 23 (integrity violation): the same write would fail again. */
const isDataError = (error: unknown) => /^2[23]/.test(String((error as { code?: unknown }).code ?? ''));

/**
 * Chat messages between their acceptance and their row (ADR 0019). A message is accepted once it
 * passed every check: it gets an id (reserved ahead), goes into the journal (fsynced), and is then
 * the caller's to broadcast; this writer saves what it accepted in batches (one statement in
 * flight, whatever arrives meanwhile goes in the next), retries while the database fails, and marks
 * each message done in the journal once its row is there. Until then it is held here: the room's
 * history and slow mode count it, and a delete can withdraw it before it is written.
 */
export class ChatWriter {
  /** Accepted and not known to be saved, by stream and id. */
  private readonly held = new Map<string, Map<number, AcceptedMessage>>();
  private readonly streamOf = new Map<number, string>();
  /** Held messages not yet in a statement, oldest first. */
  private queue: AcceptedMessage[] = [];
  private readonly waiters = new Map<number, Array<() => void>>();
  private saving = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  /** After a data error, this many messages are written one at a time to find the one that fails. */
  private oneByOne = 0;
  private failing = false;
  private closing = false;
  /** Closed: nothing more is written (the database may be closing too). */
  private stopped = false;
  private adoptTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly db: Db,
    private readonly journal: ChatJournal,
    private readonly ids: MessageIds,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Opens this server's journal under `dataDir` and takes over the messages that servers which
   * are gone (this one before a crash, included) accepted and did not save.
   */
  static async start(db: Db, dataDir: string, log: FastifyBaseLogger): Promise<ChatWriter> {
    const journal = await ChatJournal.open(dataDir);
    const writer = new ChatWriter(db, journal, new MessageIds(db, log), log);
    await writer.adopt();
    writer.adoptTimer = setInterval(() => {
      writer.adopt().catch((error) => log.error({ err: error }, 'taking over a chat journal failed'));
    }, ADOPT_EVERY_MS);
    writer.adoptTimer.unref();
    writer.ids.warm();
    return writer;
  }

  /**
   * Accepts a message that passed every check: resolves with the message to broadcast once it is
   * in the journal. Its row is written after.
   */
  async accept(draft: Omit<AcceptedMessage, 'id'>): Promise<ChatMessage> {
    if (this.closing) throw new Error('the chat writer is closing');
    const message: AcceptedMessage = { id: await this.ids.next(), ...draft };
    await this.journal.accepted(message);
    this.hold(message);
    return toChatMessage(message);
  }

  /** The room's messages accepted here and not saved yet, oldest first. */
  heldIn(streamId: string): ChatMessage[] {
    return [...(this.held.get(streamId)?.values() ?? [])].map(toChatMessage).sort(byTime);
  }

  /**
   * Seconds slow mode still makes the user wait after their messages held here (the database
   * counts the saved ones), at the database time `now`.
   */
  slowModeWaitSec(streamId: string, userId: string, slowModeSec: number, now: Date): number {
    if (slowModeSec <= 0) return 0;
    let last = 0;
    for (const message of this.held.get(streamId)?.values() ?? []) {
      if (message.userId === userId) last = Math.max(last, Date.parse(message.createdAt));
    }
    return last ? Math.max(0, Math.ceil((last + slowModeSec * 1000 - now.getTime()) / 1000)) : 0;
  }

  /**
   * Who wrote a message of the room: undefined when there is no such message, null for a system
   * line. A message held here answers at once; one another instance accepted and has not saved yet
   * is waited for in the database for up to AUTHOR_WAIT_MS.
   */
  async authorOf(streamId: string, id: number): Promise<string | null | undefined> {
    const held = this.held.get(streamId)?.get(id);
    if (held) return held.userId;
    const deadline = Date.now() + AUTHOR_WAIT_MS;
    for (;;) {
      const author = await messageAuthor(this.db, streamId, id);
      if (author !== undefined || Date.now() >= deadline) return author;
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (this.held.get(streamId)?.has(id)) return this.held.get(streamId)?.get(id)?.userId;
    }
  }

  /**
   * Withdraws a held message that is not being written yet (a delete): true when it was, and then
   * it is never saved. False when it is not held here or its statement already runs.
   */
  async withdraw(streamId: string, id: number): Promise<boolean> {
    const at = this.queue.findIndex((message) => message.id === id && message.streamId === streamId);
    const message = this.queue[at];
    if (!message) return false;
    this.queue.splice(at, 1);
    try {
      await this.journal.done([id], true);
    } catch (error) {
      this.queue.splice(Math.min(at, this.queue.length), 0, message);
      throw error;
    }
    this.release(message);
    return true;
  }

  /** Resolves true once the message is no longer held here (saved or withdrawn), false after `timeoutMs`. */
  whenSaved(id: number, timeoutMs: number): Promise<boolean> {
    if (!this.streamOf.has(id)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      const list = this.waiters.get(id) ?? [];
      list.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
      this.waiters.set(id, list);
    });
  }

  /** False once closing: the server is shutting down and accepts no more messages. */
  get accepting(): boolean {
    return !this.closing;
  }

  /**
   * Stops accepting and gives what is held up to `timeoutMs` to be saved; what is not stays in the
   * journal for the next start.
   */
  async close(timeoutMs: number): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.adoptTimer);
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.save();
    }
    const deadline = Date.now() + timeoutMs;
    while (this.streamOf.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (this.streamOf.size > 0) {
      this.log.warn(
        { held: this.streamOf.size },
        'chat messages not saved yet at shutdown: they are in the journal and saved at the next start',
      );
    }
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.journal.close();
  }

  private async adopt(): Promise<void> {
    const unsent = await this.journal.adoptOrphans();
    if (unsent.length === 0) return;
    this.log.info({ messages: unsent.length }, 'saving chat messages a previous server accepted');
    for (const message of unsent) this.hold(message);
  }

  private hold(message: AcceptedMessage): void {
    if (this.streamOf.has(message.id)) return;
    let room = this.held.get(message.streamId);
    if (!room) {
      room = new Map();
      this.held.set(message.streamId, room);
    }
    room.set(message.id, message);
    this.streamOf.set(message.id, message.streamId);
    this.queue.push(message);
    this.save();
  }

  private release(message: AcceptedMessage): void {
    const room = this.held.get(message.streamId);
    room?.delete(message.id);
    if (room?.size === 0) this.held.delete(message.streamId);
    this.streamOf.delete(message.id);
    for (const waiter of this.waiters.get(message.id) ?? []) waiter();
    this.waiters.delete(message.id);
  }

  /** Writes the next batch unless one is being written or a retry is scheduled. */
  private save(): void {
    if (this.stopped || this.saving || this.retryTimer || this.queue.length === 0) return;
    this.saving = true;
    const batch = this.queue.splice(0, this.oneByOne > 0 ? 1 : BATCH_SIZE);
    void this.write(batch).finally(() => {
      this.saving = false;
      this.save();
    });
  }

  private async write(batch: AcceptedMessage[]): Promise<void> {
    try {
      await saveMessages(this.db, batch);
    } catch (error) {
      if (isDataError(error) && batch.length > 1) {
        // One of them cannot be written: write them one by one to find it.
        this.oneByOne = batch.length;
        this.queue.unshift(...batch);
        return;
      }
      if (isDataError(error)) {
        this.log.error({ err: error, messageId: batch[0]?.id }, 'a chat message cannot be saved; dropped');
      } else {
        this.queue.unshift(...batch);
        if (this.stopped) return;
        if (!this.failing) this.log.warn({ err: error }, 'saving chat messages failed; retrying');
        this.failing = true;
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.save();
        }, this.retryMs);
        this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
        return;
      }
    }
    if (this.failing) this.log.info('saving chat messages works again');
    this.failing = false;
    this.retryMs = RETRY_MIN_MS;
    this.oneByOne = Math.max(0, this.oneByOne - batch.length);
    try {
      await this.journal.done(batch.map((message) => message.id));
    } catch (error) {
      // The rows are there: a replay of these lines writes nothing (the ids exist).
      this.log.warn({ err: error }, 'marking saved chat messages in the journal failed');
    }
    for (const message of batch) this.release(message);
  }
}

const byTime = (a: ChatMessage, b: ChatMessage) => a.timestamp.localeCompare(b.timestamp) || a.id - b.id;
