import {
  CHAT_HISTORY_SIZE,
  CHAT_REPLAY_LIMIT,
  type ChatMessage,
  type ChatReplay,
} from '@streamshop/contract/live.ts';
import type { Db } from '../../db/client.ts';
import type { ChatWriter } from './chat-writer.ts';
import { latestMessages, replayMessages } from './repo.ts';

/**
 * A message leaves the writer once its row is committed, possibly while a read runs on an older
 * snapshot: what is held before and after the read, with the read, misses nothing.
 */
async function withHeld<T>(writer: ChatWriter, streamId: string, read: () => Promise<T>) {
  const before = writer.heldIn(streamId);
  const saved = await read();
  const held = new Map([...before, ...writer.heldIn(streamId)].map((message) => [message.id, message]));
  return { saved, held };
}

/**
 * The room's latest messages for a socket that joins, oldest first: the saved ones and those this
 * instance accepted and has not saved yet. (Another instance's are in the database a moment later.)
 */
export async function roomHistory(db: Db, writer: ChatWriter, streamId: string): Promise<ChatMessage[]> {
  const { saved, held } = await withHeld(writer, streamId, () => latestMessages(db, streamId));
  const merged = [...saved.filter((message) => !held.has(message.id)), ...held.values()];
  merged.sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id - b.id);
  return merged.slice(-CHAT_HISTORY_SIZE);
}

/** A stream's chat for its replay, with the messages this instance has not saved yet. */
export async function chatReplay(
  db: Db,
  writer: ChatWriter,
  stream: { id: string; created_at: Date | string; started_at: Date | string | null },
): Promise<ChatReplay['messages']> {
  const { saved, held } = await withHeld(writer, stream.id, () => replayMessages(db, stream.id));
  const start = new Date(stream.started_at ?? stream.created_at).getTime();
  const merged = [
    ...saved.filter((message) => !held.has(message.id)),
    ...[...held.values()].map((message) => ({
      id: message.id,
      username: message.username,
      message: message.message,
      offsetSec: Math.round(Math.max(0, (Date.parse(message.timestamp) - start) / 1000) * 10) / 10,
    })),
  ];
  // Stable: saved messages keep their order; held ones follow those of the same moment.
  merged.sort((a, b) => a.offsetSec - b.offsetSec);
  return merged.slice(0, CHAT_REPLAY_LIMIT);
}
