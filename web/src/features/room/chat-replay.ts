import type { ChatReplay } from '@streamshop/contract/live.ts';

export type ReplayMessage = ChatReplay['messages'][number];

/** How many of the messages already sent at the current replay time the panel shows. */
export const REPLAY_VISIBLE = 100;

/** The messages sent up to `seconds` into the stream (the latest REPLAY_VISIBLE); input is oldest first. */
export function messagesUpTo(messages: ReplayMessage[], seconds: number): ReplayMessage[] {
  let end = 0;
  while (end < messages.length && (messages[end]?.offsetSec ?? Number.POSITIVE_INFINITY) <= seconds) end++;
  return messages.slice(Math.max(0, end - REPLAY_VISIBLE), end);
}

/** 75.4 -> "1:15"; 3700 -> "1:01:40". */
export function formatOffset(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
