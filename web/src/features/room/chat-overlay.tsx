import type { ChatMessage } from '@streamshop/contract/live.ts';
import { useEffect, useRef } from 'react';
import { cn } from '../../lib/cn.ts';
import { PurchaseLine } from './purchase-line.tsx';

/** Lines the overlay keeps on screen; older ones have faded out above them. */
const OVERLAY_LINES = 30;

/**
 * The phone room's chat lines over the video: the last ones, fading out towards the top (a new
 * one rises in, unless the visitor asked for less motion), each on a scrim so it reads over any
 * picture. `shown` false hides them (a tap brings them back); the input is the room's.
 */
export function ChatOverlay({
  messages,
  shown,
  hostHandle,
}: {
  messages: ChatMessage[];
  shown: boolean;
  hostHandle: string;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const lines = messages.slice(-OVERLAY_LINES);
  const lastId = lines.at(-1)?.id;
  useEffect(() => {
    const list = listRef.current;
    if (list && lastId !== undefined && shown) list.scrollTop = list.scrollHeight;
  }, [lastId, shown]);

  return (
    <div
      ref={listRef}
      hidden={!shown}
      className="chat-fade max-h-[28dvh] overflow-y-auto overscroll-contain rounded-md pt-6 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring landscape:max-h-[32dvh]"
      role="log"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable).
      tabIndex={0}
      aria-live="polite"
      aria-label="Chat messages"
      data-testid="chat-messages"
    >
      <ol className="grid gap-1.5">
        {lines.map((message) => (
          <li key={message.id} className="chat-line-in text-sm" data-testid="chat-message">
            {message.kind === 'purchase' ? (
              <PurchaseLine text={message.message} />
            ) : (
              <p className="w-fit max-w-full break-words rounded-lg bg-black/55 px-2.5 py-1 text-white">
                <span
                  className={cn(
                    'mr-1.5 font-semibold',
                    message.username === hostHandle ? 'text-purple-300' : 'text-white',
                  )}
                  data-testid="chat-message-author"
                >
                  @{message.username}
                </span>
                <span data-testid="chat-message-text">{message.message}</span>
              </p>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
