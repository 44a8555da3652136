import type { ChatMessage, ClientMessage } from '@streamshop/contract/live.ts';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronUp, EllipsisVertical, MessageSquare } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { Card } from '../../components/ui/card.tsx';
import { roomRoleQueryOptions } from '../../lib/api/moderation.ts';
import { cn } from '../../lib/cn.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { ChatComposer } from './chat-composer.tsx';
import type { RoomError } from './chat-state.ts';
import { PurchaseLine } from './purchase-line.tsx';

/** The time-outs the message menu offers. */
const TIMEOUT_CHOICES = [
  { seconds: 5 * 60, label: '5 min' },
  { seconds: 60 * 60, label: '1 h' },
] as const;

const menuItemClasses =
  'rounded px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none';

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}

/** The per-message menu of the host and their moderators: delete the message, time out or ban its author. */
function MessageMenu({
  message,
  onDelete,
  onTimeOut,
  onBan,
}: {
  message: ChatMessage;
  onDelete: () => void;
  /** Absent for a line no user wrote (a purchase). */
  onTimeOut: ((seconds: number) => void) | undefined;
  onBan: (() => void) | undefined;
}) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    }
  };

  return (
    <div className="relative">
      <button
        ref={triggerRef}
        type="button"
        className="rounded p-1 text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        aria-label={`Message actions for @${message.username}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        data-testid="chat-message-menu"
      >
        <EllipsisVertical className="size-4" aria-hidden="true" />
      </button>
      {open ? (
        <div
          id={menuId}
          ref={menuRef}
          role="menu"
          aria-label={`Actions for @${message.username}'s message`}
          tabIndex={-1}
          onKeyDown={onKeyDown}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
          }}
          className="absolute top-7 right-0 z-20 grid min-w-40 rounded-md border border-border bg-popover p-1 shadow-lg"
        >
          <button
            type="button"
            role="menuitem"
            className={menuItemClasses}
            onClick={() => {
              onDelete();
              close();
            }}
            data-testid="chat-delete-message"
          >
            Delete message
          </button>
          {onTimeOut
            ? TIMEOUT_CHOICES.map((choice) => (
                <button
                  key={choice.seconds}
                  type="button"
                  role="menuitem"
                  className={menuItemClasses}
                  onClick={() => {
                    onTimeOut(choice.seconds);
                    close();
                  }}
                  data-testid="chat-timeout-user"
                >
                  Time out @{message.username} for {choice.label}
                </button>
              ))
            : null}
          {onBan ? (
            <button
              type="button"
              role="menuitem"
              className={cn(menuItemClasses, 'text-destructive')}
              onClick={() => {
                onBan();
                close();
              }}
              data-testid="chat-ban-user"
            >
              Ban @{message.username}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

export function ChatPanel({
  messages,
  error,
  canChat,
  isHost,
  hostHandle,
  connected,
  send,
  className,
}: {
  messages: ChatMessage[];
  error: RoomError | null;
  canChat: boolean;
  isHost: boolean;
  hostHandle: string;
  connected: boolean;
  send: (message: ClientMessage) => boolean;
  className?: string;
}) {
  const [expanded, setExpanded] = useState(true);
  const bodyId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const { user } = useAuth();
  // The panel lives on /room/:name; the owner knows they moderate, anyone else asks.
  const { name: roomName = '' } = useParams();
  const role = useQuery({
    ...roomRoleQueryOptions(roomName),
    enabled: Boolean(user && roomName && !isHost),
  });
  const canModerate = isHost || role.data?.canModerate === true;

  // Keep the newest message in view.
  const lastId = messages.at(-1)?.id;
  useEffect(() => {
    const list = listRef.current;
    if (list && lastId !== undefined) list.scrollTop = list.scrollHeight;
  }, [lastId]);

  return (
    <Card className={cn('flex min-h-0 flex-col overflow-hidden', className)} data-testid="chat-panel">
      <h2 className="border-border border-b">
        <button
          type="button"
          className="flex w-full items-center justify-between gap-2 px-4 py-3 font-semibold text-base hover:bg-accent/50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
          aria-expanded={expanded}
          aria-controls={bodyId}
          onClick={() => setExpanded((value) => !value)}
          data-testid="chat-toggle"
        >
          <span className="flex items-center gap-2">
            <MessageSquare className="size-4 text-primary" aria-hidden="true" />
            Live Chat
          </span>
          {expanded ? (
            <ChevronUp className="size-4" aria-hidden="true" />
          ) : (
            <ChevronDown className="size-4" aria-hidden="true" />
          )}
        </button>
      </h2>
      <div id={bodyId} hidden={!expanded} className="flex min-h-0 flex-1 flex-col">
        {/* The log wraps the list: a role on the <ol> itself would leave its items outside any list. */}
        <div
          ref={listRef}
          className="min-h-48 flex-1 overflow-y-auto px-4 py-3 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset lg:min-h-0"
          role="log"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable).
          tabIndex={0}
          aria-live="polite"
          aria-label="Chat messages"
          data-testid="chat-messages"
        >
          <ol className="space-y-2">
            {messages.length === 0 ? (
              <li className="py-8 text-center text-muted-foreground text-sm" data-testid="chat-empty">
                No messages yet. Say hello!
              </li>
            ) : (
              messages.map((message) => (
                <li
                  key={message.id}
                  className="group flex items-start gap-2 text-sm"
                  data-testid="chat-message"
                >
                  {message.kind === 'purchase' ? (
                    <PurchaseLine
                      text={message.message}
                      time={
                        <time className="ml-1.5 text-muted-foreground text-xs" dateTime={message.timestamp}>
                          {formatTime(message.timestamp)}
                        </time>
                      }
                    />
                  ) : (
                    <div className="min-w-0 flex-1 break-words">
                      <span
                        className={cn(
                          'mr-1.5 font-semibold',
                          message.username === hostHandle ? 'text-primary' : 'text-foreground',
                        )}
                        data-testid="chat-message-author"
                      >
                        @{message.username}
                      </span>
                      {/* Plain text: React escapes it, so HTML in a message is never interpreted. */}
                      <span className="text-foreground/90" data-testid="chat-message-text">
                        {message.message}
                      </span>
                      <time className="ml-1.5 text-muted-foreground text-xs" dateTime={message.timestamp}>
                        {formatTime(message.timestamp)}
                      </time>
                    </div>
                  )}
                  {canModerate && message.username !== hostHandle && message.username !== user?.handle ? (
                    <MessageMenu
                      message={message}
                      onDelete={() => send({ type: 'delete_message', id: message.id })}
                      onTimeOut={
                        message.kind === 'purchase'
                          ? undefined
                          : (seconds) => send({ type: 'timeout_user', username: message.username, seconds })
                      }
                      onBan={
                        message.kind === 'purchase'
                          ? undefined
                          : () => send({ type: 'ban_user', username: message.username })
                      }
                    />
                  ) : null}
                </li>
              ))
            )}
          </ol>
        </div>
        <ChatComposer
          className="border-border border-t p-3"
          error={error}
          canChat={canChat}
          connected={connected}
          send={send}
        />
      </div>
    </Card>
  );
}
