import type { NotificationKind, NotificationPreferences } from '@streamshop/contract/notifications.ts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, TriangleAlert } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { apiGet, apiPut, errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { SettingsSection } from './settings-parts.tsx';

const PREFERENCES_URL = '/api/notification-preferences';

export const notificationPreferencesQueryOptions = queryOptions({
  queryKey: [PREFERENCES_URL] as const,
  queryFn: () => apiGet<NotificationPreferences>(PREFERENCES_URL),
});

function useSavePreferencesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preferences: NotificationPreferences) =>
      apiPut<NotificationPreferences>(PREFERENCES_URL, preferences),
    onSuccess: (saved) => queryClient.setQueryData(notificationPreferencesQueryOptions.queryKey, saved),
  });
}

const KINDS: { kind: NotificationKind; title: string; detail: string }[] = [
  {
    kind: 'live',
    title: 'Go-live of sellers I follow',
    detail: 'When a seller you follow starts a live stream.',
  },
  {
    kind: 'reminder',
    title: 'Show reminders',
    detail: '15 minutes before a show you asked to be reminded of, and when it goes live.',
  },
];

const CHANNELS = [
  { channel: 'email', label: 'Email' },
  { channel: 'inApp', label: 'In the app' },
] as const;

function PreferencesForm({ saved }: { saved: NotificationPreferences }) {
  const { user } = useAuth();
  const save = useSavePreferencesMutation();
  const [values, setValues] = useState(saved);
  const [failure, setFailure] = useState<string | null>(null);
  const id = useId();
  const changed = JSON.stringify(values) !== JSON.stringify(saved);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    save.mutate(values, {
      onSuccess: (answer) => {
        setValues(answer);
        toast({ title: 'Notification settings saved' });
      },
      onError: (error) => {
        const message = errorMessage(error, 'Your notification settings could not be saved.');
        setFailure(message);
        errorToast('Error', message);
      },
    });
  }

  return (
    <form className="grid gap-5" onSubmit={onSubmit} noValidate>
      {KINDS.map(({ kind, title, detail }) => (
        <fieldset key={kind} className="grid gap-2" aria-describedby={`${id}-${kind}-detail`}>
          <legend className="font-medium text-sm">{title}</legend>
          <p id={`${id}-${kind}-detail`} className="text-muted-foreground text-xs">
            {detail}
          </p>
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {CHANNELS.map(({ channel, label }) => (
              <label key={channel} className="inline-flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={values[kind][channel]}
                  disabled={save.isPending}
                  onChange={(event) => {
                    const on = event.target.checked;
                    setValues((was) => ({ ...was, [kind]: { ...was[kind], [channel]: on } }));
                  }}
                  data-testid={`notify-${kind}-${channel}`}
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      {user && !user.emailVerified ? (
        <p className="text-muted-foreground text-xs" data-testid="notify-unverified">
          Emails go only to a verified address: confirm yours to get them.
        </p>
      ) : null}
      {failure ? (
        <p role="alert" className="flex items-center gap-2 text-red-300 text-sm" data-testid="notify-error">
          <TriangleAlert className="size-4" aria-hidden="true" />
          {failure}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={!changed || save.isPending} data-testid="notify-save">
          {save.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Save notification settings
        </Button>
      </div>
    </form>
  );
}

/** How one hears of go-lives and show reminders: by email, in the app (the bell), both or neither. */
export function NotificationsSection() {
  const preferences = useQuery(notificationPreferencesQueryOptions);
  const { hash } = useLocation();
  const anchorRef = useRef<HTMLDivElement>(null);
  const loaded = preferences.isSuccess;

  // /settings#notifications (the bell's page, the unsubscribe page): here, once it has its height.
  useEffect(() => {
    if (loaded && hash === '#notifications') anchorRef.current?.scrollIntoView({ block: 'start' });
  }, [loaded, hash]);

  let body: React.ReactNode;
  if (preferences.isPending) {
    body = (
      <div className="grid gap-3" data-testid="notify-loading">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  } else if (preferences.isError) {
    body = (
      <p
        role="alert"
        className="flex items-center gap-2 text-red-300 text-sm"
        data-testid="notify-load-error"
      >
        <TriangleAlert className="size-4" aria-hidden="true" />
        {errorMessage(preferences.error, 'Your notification settings could not be loaded.')}
      </p>
    );
  } else {
    body = <PreferencesForm saved={preferences.data} />;
  }

  return (
    <div id="notifications" ref={anchorRef} className="scroll-mt-20">
      <SettingsSection
        title="Notifications"
        description="How you hear when sellers you follow go live and when shows you asked to be reminded of start."
        testId="settings-notifications"
      >
        {body}
      </SettingsSection>
    </div>
  );
}
