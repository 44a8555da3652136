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

/**
 * The moment of the stream a replay's video is at, for `messagesUpTo`. At the video's end that is
 * the end of the stream, whatever the video's length: the chat's moments are counted from the
 * stream's start on the server's clock, and the recording starts a moment later (its encoder
 * starting) and may lose its last second, so the last messages can lie past the video's length.
 * They had all been said by the end.
 */
export function replayMoment(video: { currentTime: number; duration: number; ended: boolean }): number {
  const atEnd = video.ended || (Number.isFinite(video.duration) && video.currentTime >= video.duration);
  return atEnd ? Number.POSITIVE_INFINITY : video.currentTime;
}

/** 75.4 -> "1:15"; 3700 -> "1:01:40". */
export function formatOffset(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
