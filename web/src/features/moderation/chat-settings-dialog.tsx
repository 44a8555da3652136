import type { ChatSettings } from '@streamshop/contract/moderation.ts';
import { useQuery } from '@tanstack/react-query';
import { Loader2, UserMinus, UserPlus } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage, extractFieldErrors } from '../../lib/api/client.ts';
import {
  chatSettingsQueryOptions,
  moderatorsQueryOptions,
  useAddModeratorMutation,
  useRemoveModeratorMutation,
  useSaveChatSettingsMutation,
} from '../../lib/api/moderation.ts';
import { errorToast } from '../../lib/error-toast.ts';
import {
  blockedWordsError,
  formatBlockedWords,
  parseBlockedWords,
  slowModeLabel,
  slowModeOptions,
} from './chat-settings-form.ts';

const textareaClasses =
  'flex min-h-24 w-full rounded-md border border-input bg-background px-3 py-2 text-base text-foreground placeholder:text-muted-foreground md:text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background';

function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="flex items-center justify-between gap-3 text-muted-foreground text-sm" role="alert">
      <span>Your {what} could not be loaded.</span>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

function RulesForm({ saved }: { saved: ChatSettings }) {
  const uid = useId();
  const [slowModeSec, setSlowModeSec] = useState(saved.slowModeSec);
  const [wordsText, setWordsText] = useState(() => formatBlockedWords(saved.blockedWords));
  const [error, setError] = useState<string | null>(null);
  const save = useSaveChatSettingsMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const blockedWords = parseBlockedWords(wordsText);
    const invalid = blockedWordsError(blockedWords);
    setError(invalid);
    if (invalid) return;
    save.mutate(
      { slowModeSec, blockedWords },
      {
        onSuccess: (result) => {
          setWordsText(formatBlockedWords(result.blockedWords));
          toast({ title: 'Chat settings saved' });
        },
        onError: (failure) => {
          const fields = Object.values(extractFieldErrors(failure));
          setError(fields[0] ?? errorMessage(failure, 'Could not save the chat settings. Try again.'));
        },
      },
    );
  };

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate data-testid="chat-rules-form">
      <div className="grid gap-2">
        <Label htmlFor={`${uid}-slow`}>Slow mode</Label>
        <Select value={String(slowModeSec)} onValueChange={(value) => setSlowModeSec(Number(value))}>
          <SelectTrigger
            id={`${uid}-slow`}
            aria-describedby={`${uid}-slow-hint`}
            data-testid="slow-mode-select"
          >
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {slowModeOptions(saved.slowModeSec).map((seconds) => (
              <SelectItem key={seconds} value={String(seconds)}>
                {slowModeLabel(seconds)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p id={`${uid}-slow-hint`} className="text-muted-foreground text-xs">
          Each viewer can send one message per this many seconds. You and your moderators are exempt.
        </p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${uid}-words`}>Blocked words</Label>
        <textarea
          id={`${uid}-words`}
          className={textareaClasses}
          value={wordsText}
          rows={4}
          placeholder={'scam\ndm me'}
          aria-describedby={`${uid}-words-hint${error ? ` ${uid}-error` : ''}`}
          aria-invalid={error !== null}
          onChange={(event) => setWordsText(event.target.value)}
          data-testid="blocked-words-input"
        />
        <p id={`${uid}-words-hint`} className="text-muted-foreground text-xs">
          One per line or separated by commas. A message containing one as a whole word (any case) is not
          sent, yours included.
        </p>
      </div>
      {error ? (
        <p id={`${uid}-error`} className="text-red-400 text-sm" role="alert" data-testid="chat-rules-error">
          {error}
        </p>
      ) : null}
      <p className="text-muted-foreground text-xs">
        Only signed-in viewers can chat. Followers-only chat is not available.
      </p>
      <Button type="submit" className="w-fit" disabled={save.isPending} data-testid="chat-settings-save">
        {save.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
        Save rules
      </Button>
    </form>
  );
}

function ChatRules() {
  const settings = useQuery(chatSettingsQueryOptions);
  if (settings.isPending) {
    return (
      <div className="grid gap-3" role="status" aria-label="Loading chat settings">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (settings.isError) return <LoadFailed what="chat settings" onRetry={() => void settings.refetch()} />;
  return <RulesForm saved={settings.data} />;
}

function Moderators() {
  const uid = useId();
  const list = useQuery(moderatorsQueryOptions);
  const add = useAddModeratorMutation();
  const remove = useRemoveModeratorMutation();
  const [handle, setHandle] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = handle.trim();
    if (!value) {
      setError('Enter a handle');
      return;
    }
    setError(null);
    add.mutate(value, {
      onSuccess: (moderator) => {
        setHandle('');
        toast({ title: `@${moderator.handle} is now a moderator` });
      },
      onError: (failure) =>
        setError(extractFieldErrors(failure).handle ?? errorMessage(failure, 'Could not add the moderator.')),
    });
  };

  const dismiss = (moderatorHandle: string) =>
    remove.mutate(moderatorHandle, {
      onSuccess: () => toast({ title: `@${moderatorHandle} is no longer a moderator` }),
      onError: (failure) => errorToast('Error', errorMessage(failure, 'Could not remove the moderator.')),
    });

  return (
    <div className="grid gap-3">
      <p className="text-muted-foreground text-xs">
        Moderators can delete messages, time out and ban viewers in all your rooms.
      </p>
      {list.isPending ? (
        <div className="grid gap-2" role="status" aria-label="Loading moderators">
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
        </div>
      ) : list.isError ? (
        <LoadFailed what="moderators" onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="moderators-empty">
          No moderators yet.
        </p>
      ) : (
        <ul className="grid gap-1" aria-label="Your moderators">
          {list.data.map((moderator) => (
            <li
              key={moderator.handle}
              className="flex items-center justify-between gap-2 rounded-md border border-border px-3 py-1.5"
              data-testid="moderator-item"
            >
              <span className="font-medium text-sm">@{moderator.handle}</span>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove @${moderator.handle} as a moderator`}
                disabled={remove.isPending}
                onClick={() => dismiss(moderator.handle)}
                data-testid="moderator-remove"
              >
                <UserMinus aria-hidden="true" />
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className="grid gap-2" onSubmit={submit} noValidate>
        <Label htmlFor={`${uid}-handle`}>Add a moderator</Label>
        <div className="flex gap-2">
          <Input
            id={`${uid}-handle`}
            value={handle}
            placeholder="@handle"
            autoComplete="off"
            aria-invalid={error !== null}
            aria-describedby={error ? `${uid}-handle-error` : undefined}
            onChange={(event) => setHandle(event.target.value)}
            data-testid="moderator-handle-input"
          />
          <Button type="submit" disabled={add.isPending} data-testid="moderator-add">
            {add.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <UserPlus aria-hidden="true" />
            )}
            Add
          </Button>
        </div>
        {error ? (
          <p id={`${uid}-handle-error`} className="text-red-400 text-xs" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </div>
  );
}

/** The seller's chat rules for all their rooms (slow mode, blocked words) and their moderators. */
export function ChatSettingsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const uid = useId();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl" data-testid="chat-settings-dialog">
        <DialogHeader>
          <DialogTitle>Chat settings</DialogTitle>
          <DialogDescription>
            Rules for the chat of all your rooms. They apply from the next message sent.
          </DialogDescription>
        </DialogHeader>
        <section aria-labelledby={`${uid}-rules`} className="grid gap-3">
          <h3 id={`${uid}-rules`} className="font-semibold">
            Rules
          </h3>
          <ChatRules />
        </section>
        <section aria-labelledby={`${uid}-moderators`} className="grid gap-3 border-border border-t pt-4">
          <h3 id={`${uid}-moderators`} className="font-semibold">
            Moderators
          </h3>
          <Moderators />
        </section>
      </DialogContent>
    </Dialog>
  );
}
