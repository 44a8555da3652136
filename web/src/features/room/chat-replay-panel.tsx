import { useQuery } from '@tanstack/react-query';
import { History, ShoppingBag } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { chatReplayQueryOptions } from './api.ts';
import { formatOffset, messagesUpTo, replayMoment } from './chat-replay.ts';

/** Beside the replay: the stream's chat as it was at the video's current moment. */
export function ChatReplayPanel({
  roomName,
  video,
  hostHandle,
  className,
}: {
  roomName: string;
  video: HTMLVideoElement;
  hostHandle: string;
  className?: string;
}) {
  const replay = useQuery(chatReplayQueryOptions(roomName));
  const [seconds, setSeconds] = useState(() => replayMoment(video));
  useEffect(() => {
    const update = () => setSeconds(replayMoment(video));
    // 'seeking' too: a seek to the very end can finish without 'seeked' (hls.js, nothing left to
    // buffer there), and the chat must still show everything up to that moment.
    const events = ['timeupdate', 'seeking', 'seeked', 'loadedmetadata', 'ended'] as const;
    for (const name of events) video.addEventListener(name, update);
    return () => {
      for (const name of events) video.removeEventListener(name, update);
    };
  }, [video]);

  const visible = messagesUpTo(replay.data?.messages ?? [], seconds);
  const listRef = useRef<HTMLOListElement>(null);
  const lastId = visible.at(-1)?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the newest shown message changes.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [lastId]);

  return (
    <Card className={cn('flex min-h-0 flex-col overflow-hidden', className)} data-testid="chat-replay">
      <h2 className="flex items-center gap-2 border-border border-b px-4 py-3 font-semibold text-base">
        <History className="size-4 text-primary" aria-hidden="true" />
        Chat replay
      </h2>
      <ol
        ref={listRef}
        className="min-h-48 flex-1 space-y-2 overflow-y-auto px-4 py-3 lg:min-h-0"
        aria-label="Chat messages at this point of the replay"
        data-testid="chat-replay-messages"
      >
        {visible.length === 0 ? (
          <li className="py-8 text-center text-muted-foreground text-sm">
            {replay.isPending ? 'Loading the chat…' : 'No messages yet at this point of the stream.'}
          </li>
        ) : (
          visible.map((message) => (
            <li key={message.id} className="break-words text-sm" data-testid="chat-replay-message">
              <button
                type="button"
                className="mr-1.5 rounded text-muted-foreground text-xs tabular-nums hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                onClick={() => {
                  video.currentTime = message.offsetSec;
                }}
                aria-label={`Jump to ${formatOffset(message.offsetSec)}`}
              >
                {formatOffset(message.offsetSec)}
              </button>
              {message.kind === 'purchase' ? (
                // The server's purchase line: no author.
                <span className="font-medium text-primary" data-testid="chat-replay-purchase">
                  <ShoppingBag className="mr-1 inline size-3.5 align-[-2px]" aria-hidden="true" />
                  {message.message}
                </span>
              ) : (
                <>
                  <span
                    className={cn(
                      'mr-1.5 font-semibold',
                      message.username === hostHandle ? 'text-primary' : 'text-foreground',
                    )}
                  >
                    @{message.username}
                  </span>
                  {/* Plain text: React escapes it, so HTML in a message is never interpreted. */}
                  <span className="text-foreground/90">{message.message}</span>
                </>
              )}
            </li>
          ))
        )}
      </ol>
    </Card>
  );
}
