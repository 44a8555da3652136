import type { ChatMessage, ServerMessage } from '@streamshop/contract/live.ts';
import { parseAuctionEvent } from './auction-state.ts';
import { parseGiveawayEvent } from './giveaway-state.ts';
import { parseShopEvent } from './shop-state.ts';

/** Messages the panel keeps; older ones scroll away (the server keeps the history). */
export const CHAT_KEPT_MESSAGES = 200;

export interface RoomError {
  code: string;
  message: string;
}

/** What the room knows from its realtime connection. */
export interface RoomState {
  messages: ChatMessage[];
  /** null until the server has sent a count. */
  viewerCount: number | null;
  /** The stream's end time while it is live, from stream_started. */
  endsAt: string | null;
  /** The stream ended (stream_ended). */
  ended: boolean;
  /** The last error the server answered (rate limit, muted, ...), shown inline. */
  error: RoomError | null;
}

export const initialRoomState: RoomState = {
  messages: [],
  viewerCount: null,
  endsAt: null,
  ended: false,
  error: null,
};

export type RoomAction = ServerMessage | { type: 'clear_error' };

export function roomReducer(state: RoomState, action: RoomAction): RoomState {
  switch (action.type) {
    case 'chat_history':
      return { ...state, messages: action.messages.slice(-CHAT_KEPT_MESSAGES) };
    case 'chat_message': {
      if (state.messages.some((message) => message.id === action.id)) return state;
      return { ...state, messages: [...state.messages, action].slice(-CHAT_KEPT_MESSAGES) };
    }
    case 'message_deleted':
      return { ...state, messages: state.messages.filter((message) => message.id !== action.id) };
    case 'viewer_count':
      return { ...state, viewerCount: action.count };
    case 'stream_started':
      return { ...state, endsAt: action.endsAt, ended: false };
    case 'stream_ended':
      return { ...state, ended: true, endsAt: null };
    case 'error':
      return { ...state, error: { code: action.code, message: action.message } };
    case 'clear_error':
      return state.error ? { ...state, error: null } : state;
    default:
      return state;
  }
}

/** Refusals the sender can fix by waiting or rewording: their message goes back into the input. */
const KEEPS_DRAFT = new Set(['SLOW_MODE', 'RATE_LIMITED', 'BLOCKED_WORD', 'TOO_LONG', 'UNAVAILABLE']);

/** The chat input after a refusal: the refused message again, unless something new was typed. */
export function draftAfterError(code: string, draft: string, lastSent: string): string {
  return KEEPS_DRAFT.has(code) && draft === '' ? lastSent : draft;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isChatMessage(value: unknown): value is ChatMessage {
  return (
    isObject(value) &&
    typeof value.id === 'number' &&
    typeof value.message === 'string' &&
    typeof value.timestamp === 'string'
  );
}

/** A purchase line ('@buyer just bought Title') is the server's, drawn apart from what users say. */
const purchaseKind = (data: { kind?: unknown }): Pick<ChatMessage, 'kind'> =>
  data.kind === 'purchase' ? { kind: 'purchase' } : {};

/** Reads a text frame of /ws?room=…; anything malformed or unknown is null. */
export function parseServerMessage(raw: string): ServerMessage | null {
  const data: unknown = JSON.parse(raw);
  if (!isObject(data)) return null;
  switch (data.type) {
    case 'chat_message':
      return isChatMessage(data)
        ? {
            type: 'chat_message',
            id: data.id,
            // The spec's default for a missing name.
            username: typeof data.username === 'string' && data.username ? data.username : 'Anonymous',
            message: data.message,
            timestamp: data.timestamp,
            ...purchaseKind(data),
          }
        : null;
    case 'chat_history':
      return Array.isArray(data.messages)
        ? {
            type: 'chat_history',
            messages: data.messages.filter(isChatMessage).map((message) => ({
              ...message,
              type: 'chat_message' as const,
              username: message.username || 'Anonymous',
              kind: purchaseKind(message).kind,
            })),
          }
        : null;
    case 'viewer_count':
      return typeof data.count === 'number' ? { type: 'viewer_count', count: data.count } : null;
    case 'message_deleted':
      return typeof data.id === 'number' ? { type: 'message_deleted', id: data.id } : null;
    case 'stream_started':
      return typeof data.endsAt === 'string' ? { type: 'stream_started', endsAt: data.endsAt } : null;
    case 'stream_ended':
      return { type: 'stream_ended' };
    case 'shop':
    case 'stock':
      return parseShopEvent(data);
    case 'auction_started':
    case 'auction_bid':
    case 'auction_extended':
    case 'auction_ended':
      return parseAuctionEvent(data);
    case 'giveaway':
      return parseGiveawayEvent(data);
    case 'error':
      return {
        type: 'error',
        code: typeof data.code === 'string' ? data.code : 'ERROR',
        message: typeof data.message === 'string' ? data.message : 'Something went wrong',
      };
    default:
      return null;
  }
}
