/** What a banned or timed-out sender is told: a time-out says until when (UTC) and how long that is. */
export function mutedMessage(until: Date | null, now = new Date()): string {
  if (until === null) return 'The host has banned you from their chat';
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  const left =
    seconds < 60
      ? `${seconds} s`
      : minutes < 60
        ? `${minutes} min`
        : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
  return `You are timed out of this chat until ${until.toISOString().slice(11, 19)} UTC (${left} from now)`;
}
