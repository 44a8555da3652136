import type { ChatSettings, Moderator, RoomRole } from '@streamshop/contract/moderation.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { unbanUser } from '../chat/service.ts';
import { findStreamByRoom } from '../streams/service.ts';
import {
  deleteModerator,
  findChatSettings,
  findUserIdByHandle,
  insertModerator,
  listModerators,
  roleInRooms,
  upsertChatSettings,
} from './repo.ts';

/** What chat uses: the blocked-word check and every user's role in the rooms. */
export { findBlockedWord } from './blocked-words.ts';
export { roleInRooms } from './repo.ts';

export function moderatorsOf(db: Db, ownerId: string): Promise<Moderator[]> {
  return listModerators(db, ownerId);
}

/**
 * Appoints a moderator of every room of the owner's. A moderator is never muted (they could not
 * be banned while one), so a ban or time-out they had is lifted.
 */
export async function appointModerator(db: Db, ownerId: string, handle: string): Promise<Moderator> {
  const userId = await findUserIdByHandle(db, handle);
  if (!userId) throw badRequest('No user has this handle', { handle: 'No user has this handle' });
  if (userId === ownerId) {
    throw badRequest('You moderate your own rooms already', { handle: 'You cannot appoint yourself' });
  }
  const added = await insertModerator(db, ownerId, userId);
  if (!added) throw conflict('CONFLICT', `@${handle} is already one of your moderators`);
  await unbanUser(db, ownerId, userId);
  return added;
}

export async function dismissModerator(db: Db, ownerId: string, handle: string): Promise<void> {
  if (!(await deleteModerator(db, ownerId, handle)))
    throw notFound(`@${handle} is not one of your moderators`);
}

export function chatSettingsOf(db: Db, ownerId: string): Promise<ChatSettings> {
  return findChatSettings(db, ownerId);
}

export function saveChatSettings(db: Db, ownerId: string, settings: ChatSettings): Promise<ChatSettings> {
  return upsertChatSettings(db, ownerId, settings);
}

/** Whether the user (undefined: signed out) may moderate the room's chat. */
export async function roomRoleOf(db: Db, roomName: string, userId: string | undefined): Promise<RoomRole> {
  const stream = await findStreamByRoom(db, roomName);
  if (!stream) throw notFound('Stream not found');
  if (!userId) return { canModerate: false };
  return { canModerate: (await roleInRooms(db, stream.owner_id, userId)) !== 'viewer' };
}
