import type { ClientMessage } from '@streamshop/contract/live.ts';
import { CHAT_MAX_LENGTH } from '@streamshop/contract/live.ts';
import { withReturnPath } from '@streamshop/contract/return-path.ts';
import { Send } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { draftAfterError, type RoomError } from './chat-state.ts';

/**
 * The chat's input and Send (signed in) or "Sign in to chat", with the server's last refusal
 * above it. A message refused for a reason the sender can fix (slow mode, a blocked word) comes
 * back to the input. Used by the chat panel and by the phone room's overlay (`inputClassName`).
 */
export function ChatComposer({
  error,
  canChat,
  connected,
  send,
  className,
  inputClassName,
}: {
  error: RoomError | null;
  canChat: boolean;
  connected: boolean;
  send: (message: ClientMessage) => boolean;
  className?: string;
  inputClassName?: string;
}) {
  const [draft, setDraft] = useState('');
  const inputId = useId();
  const lastSent = useRef('');
  const location = useLocation();

  useEffect(() => {
    if (error) setDraft((current) => draftAfterError(error.code, current, lastSent.current));
  }, [error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = draft.trim();
    if (!message) return;
    if (send({ type: 'chat_message', message })) {
      lastSent.current = message;
      setDraft('');
    }
  };

  return (
    <div className={className}>
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
            enterKeyHint="send"
            className={inputClassName}
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
          <Link
            to={withReturnPath('/signin', `${location.pathname}${location.search}`)}
            className={buttonClasses({ variant: 'link', className: 'h-auto p-0' })}
          >
            Sign in to chat
          </Link>
        </p>
      )}
    </div>
  );
}
