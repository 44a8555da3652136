/**
 * Chat's entry: what its routes and other modules use of a room's messages, views and sanctions.
 * The room's live fan-out is the platform's room hub; the socket protocol is in routes.ts.
 * Accepted messages reach the database through the ChatWriter (ADR 0019).
 */
export { ChatWriter } from './chat-writer.ts';
export { chatReplay, roomHistory } from './history.ts';
export {
  banUser,
  countView,
  deleteMessage,
  findModerationTarget,
  messagesOfUser,
  renameAuthor,
  senderStanding,
  timeOutUser,
  unbanUser,
} from './repo.ts';
