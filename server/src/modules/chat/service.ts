/**
 * Chat's entry: what its routes and other modules use of a room's messages, views and sanctions.
 * The room's live fan-out is the platform's room hub; the socket protocol is in routes.ts.
 */
export {
  banUser,
  countView,
  deleteMessage,
  findModerationTarget,
  insertMessage,
  latestMessages,
  messageAuthor,
  replayMessages,
  senderStanding,
  timeOutUser,
  unbanUser,
} from './repo.ts';
