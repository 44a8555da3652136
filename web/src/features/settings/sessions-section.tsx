import type { AccountSession } from '@streamshop/contract/account.ts';
import { useQuery } from '@tanstack/react-query';
import { LogOut, Monitor, Smartphone, Tablet, TriangleAlert } from 'lucide-react';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { formatDate } from '../../lib/format-date.ts';
import { accountSessionsQueryOptions, useEndSessionMutation, useSignOutOthersMutation } from './api.ts';
import { SettingsSection } from './settings-parts.tsx';

/** 'Nov 26, 9:41 AM': when a session was last used matters to the hour. */
const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

const deviceIcons = { desktop: Monitor, mobile: Smartphone, tablet: Tablet, other: Monitor } as const;

function SessionRow({ session }: { session: AccountSession }) {
  const end = useEndSessionMutation();
  const Icon = deviceIcons[session.device];
  return (
    <li className="flex items-center gap-3 py-3" data-testid="session-row">
      <Icon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-sm">
          <span data-testid="session-description">{session.description}</span>
          {session.current ? (
            <Badge variant="secondary" data-testid="session-current">
              This device
            </Badge>
          ) : null}
        </p>
        <p className="text-muted-foreground text-xs">
          Last active {dateTime(session.lastActiveAt)} · signed in {formatDate(session.createdAt)}
        </p>
      </div>
      {session.current ? null : (
        <Button
          variant="ghost"
          size="sm"
          disabled={end.isPending}
          onClick={() =>
            end.mutate(session.id, {
              onSuccess: () => toast({ title: 'Signed out', description: session.description }),
              onError: (error) =>
                errorToast('Error', errorMessage(error, 'That session could not be ended.')),
            })
          }
          aria-label={`Sign out ${session.description}`}
          data-testid="session-end"
        >
          <LogOut aria-hidden="true" />
          Sign out
        </Button>
      )}
    </li>
  );
}

/** Where the account is signed in, and a way to sign out there. */
export function SessionsSection() {
  const sessions = useQuery(accountSessionsQueryOptions);
  const signOutOthers = useSignOutOthersMutation();
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;

  let body: React.ReactNode;
  if (sessions.isPending) {
    body = (
      <div className="grid gap-3" data-testid="sessions-loading">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  } else if (sessions.isError) {
    body = (
      <p role="alert" className="flex items-center gap-2 text-red-300 text-sm" data-testid="sessions-error">
        <TriangleAlert className="size-4" aria-hidden="true" />
        {errorMessage(sessions.error, 'Your sessions could not be loaded.')}
      </p>
    );
  } else {
    body = (
      <>
        <ul className="divide-y divide-border" data-testid="sessions-list">
          {sessions.data.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </ul>
        {others === 0 ? (
          <p className="text-muted-foreground text-sm" data-testid="sessions-only-this">
            You are signed in on this device only.
          </p>
        ) : null}
      </>
    );
  }

  return (
    <SettingsSection
      title="Where you're signed in"
      description="Sign out a device you do not recognise, or all of them but this one."
      testId="settings-sessions"
    >
      {body}
      <div>
        <Button
          variant="outline"
          disabled={others === 0 || signOutOthers.isPending}
          onClick={() =>
            signOutOthers.mutate(undefined, {
              onSuccess: ({ ended }) =>
                toast({
                  title: 'Signed out everywhere else',
                  description: `${ended} ${ended === 1 ? 'session' : 'sessions'} ended.`,
                }),
              onError: (error) => errorToast('Error', errorMessage(error, 'Something went wrong.')),
            })
          }
          data-testid="sign-out-others"
        >
          <LogOut aria-hidden="true" />
          Sign out everywhere else
        </Button>
      </div>
    </SettingsSection>
  );
}
