import type { ChatMessage, ClientMessage } from '@streamshop/contract/live.ts';
import { CHAT_MAX_LENGTH } from '@streamshop/contract/live.ts';
import { ChevronDown, ChevronUp, EllipsisVertical, MessageSquare, Send } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { cn } from '../../lib/cn.ts';
import type { RoomError } from './chat-state.ts';

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}

/** The host's per-message menu: delete the message, mute its author. */
function MessageMenu({
  message,
  onDelete,
  onMute,
}: {
  message: ChatMessage;
  onDelete: () => void;
  onMute: () => void;
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
            className="rounded px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none"
            onClick={() => {
              onDelete();
              close();
            }}
            data-testid="chat-delete-message"
          >
            Delete message
          </button>
          <button
            type="button"
            role="menuitem"
            className="rounded px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none"
            onClick={() => {
              onMute();
              close();
            }}
            data-testid="chat-mute-user"
          >
            Mute @{message.username}
          </button>
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
  const [draft, setDraft] = useState('');
  const bodyId = useId();
  const inputId = useId();
  const listRef = useRef<HTMLOListElement>(null);

  // Keep the newest message in view.
  const lastId = messages.at(-1)?.id;
  useEffect(() => {
    const list = listRef.current;
    if (list && lastId !== undefined) list.scrollTop = list.scrollHeight;
  }, [lastId]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = draft.trim();
    if (!message) return;
    if (send({ type: 'chat_message', message })) setDraft('');
  };

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
        <ol
          ref={listRef}
          className="min-h-48 flex-1 space-y-2 overflow-y-auto px-4 py-3 lg:min-h-0"
          role="log"
          aria-live="polite"
          aria-label="Chat messages"
          data-testid="chat-messages"
        >
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
                {isHost && message.username !== hostHandle ? (
                  <MessageMenu
                    message={message}
                    onDelete={() => send({ type: 'delete_message', id: message.id })}
                    onMute={() => send({ type: 'mute_user', username: message.username })}
                  />
                ) : null}
              </li>
            ))
          )}
        </ol>
        <div className="border-border border-t p-3">
          {error ? (
            <p role="alert" className="mb-2 text-destructive text-sm" data-testid="chat-error">
              {error.message}
            </p>
          ) : null}
          {canChat ? (
            <form onSubmit={submit} className="flex gap-2" data-testid="chat-form">
              <label htmlFor={inputId} className="sr-only">
                Chat message
              </label>
              <Input
                id={inputId}
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                maxLength={CHAT_MAX_LENGTH}
                placeholder={connected ? 'Say something…' : 'Connecting…'}
                autoComplete="off"
                data-testid="chat-input"
              />
              <Button
                type="submit"
                size="icon"
                aria-label="Send message"
                disabled={!connected || !draft.trim()}
                data-testid="chat-send"
              >
                <Send aria-hidden="true" />
              </Button>
            </form>
          ) : (
            <p className="text-center text-muted-foreground text-sm" data-testid="chat-sign-in">
              <Link to="/signin" className={buttonClasses({ variant: 'link', className: 'h-auto p-0' })}>
                Sign in to chat
              </Link>
            </p>
          )}
        </div>
      </div>
    </Card>
  );
}
