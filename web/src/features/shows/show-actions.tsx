import { withReturnPath } from '@streamshop/contract/return-path.ts';
import { SHOW_REMINDER_MINUTES, type Show } from '@streamshop/contract/shows.ts';
import { Bell, BellRing, Pencil, PlayCircle, Radio, VideoOff } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LIVE_BADGE_CLASS } from '../../components/product-card.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { useGoLiveFromShowMutation, useReminderMutation } from './api.ts';

/** The query parameter sign-in brings a visitor back with: set the reminder they asked for. */
const REMIND_PARAM = 'remind';

/** "12 people asked to be reminded". */
export function reminderCount(reminders: number): string {
  if (reminders === 0) return 'No one has asked for a reminder yet';
  return `${reminders.toLocaleString('en-US')} ${reminders === 1 ? 'person' : 'people'} asked to be reminded`;
}

function ReminderCount({ reminders }: { reminders: number }) {
  return (
    <p className="text-muted-foreground text-sm" data-testid="show-reminders" aria-live="polite">
      {reminderCount(reminders)}
    </p>
  );
}

/**
 * "Remind me" / "Reminder set" for a scheduled show. A visitor who is signed out goes to sign in
 * and comes back with the reminder set; the seller sees how many asked.
 */
export function ReminderControl({ show, signedIn, own }: { show: Show; signedIn: boolean; own: boolean }) {
  const reminder = useReminderMutation(show.id);
  const [searchParams, setSearchParams] = useSearchParams();
  const handled = useRef(false);
  const returning = searchParams.get(REMIND_PARAM) === '1';

  // Back from sign-in: the reminder they asked for, once, then the address without the parameter.
  useEffect(() => {
    if (!returning || !signedIn || handled.current) return;
    handled.current = true;
    if (show.status === 'scheduled' && !show.reminded && !own) reminder.mutate(true);
    setSearchParams(
      (params) => {
        params.delete(REMIND_PARAM);
        return params;
      },
      { replace: true },
    );
  }, [returning, signedIn, show.status, show.reminded, own, reminder, setSearchParams]);

  if (show.status !== 'scheduled') return null;
  if (own) return <ReminderCount reminders={show.reminders} />;

  const hint = show.reminded
    ? `We’ll remind you ${SHOW_REMINDER_MINUTES} minutes before it starts.`
    : `Get a notification ${SHOW_REMINDER_MINUTES} minutes before it starts.`;
  return (
    <div className="flex flex-col gap-2" data-testid="show-reminder">
      {signedIn ? (
        <Button
          size="lg"
          variant={show.reminded ? 'secondary' : 'default'}
          aria-pressed={show.reminded}
          disabled={reminder.isPending}
          onClick={() => reminder.mutate(!show.reminded)}
          data-testid="show-remind"
        >
          {show.reminded ? <BellRing aria-hidden="true" /> : <Bell aria-hidden="true" />}
          {show.reminded ? 'Reminder set' : 'Remind me'}
        </Button>
      ) : (
        <Link
          to={withReturnPath('/signin', `/shows/${show.id}?${REMIND_PARAM}=1`)}
          className={buttonClasses({ size: 'lg' })}
          data-testid="show-remind"
        >
          <Bell aria-hidden="true" />
          Remind me
        </Link>
      )}
      <p className="text-muted-foreground text-xs">
        {signedIn ? hint : 'Sign in to get a reminder before it starts.'}
      </p>
      {reminder.isError ? (
        <p role="alert" className="text-destructive text-sm" data-testid="show-remind-error">
          {errorMessage(reminder.error, 'The reminder could not be changed. Please try again.')}
        </p>
      ) : null}
      <ReminderCount reminders={show.reminders} />
    </div>
  );
}

/** The seller's own scheduled show: go live from it now, or change it in the dashboard. */
export function SellerControls({ show }: { show: Show }) {
  const navigate = useNavigate();
  const goLive = useGoLiveFromShowMutation(show.id);
  if (show.status !== 'scheduled') return null;
  return (
    <div className="flex flex-col gap-2" data-testid="show-seller-controls">
      <p className="text-muted-foreground text-sm">This is your show.</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Button
          size="lg"
          disabled={goLive.isPending}
          onClick={() =>
            goLive.mutate(undefined, {
              onSuccess: ({ roomName }) => navigate(`/room/${encodeURIComponent(roomName)}`),
            })
          }
          data-testid="show-go-live"
        >
          <Radio aria-hidden="true" />
          {goLive.isPending ? 'Opening your room…' : 'Go live now'}
        </Button>
        <Link
          to="/dashboard?tab=shows"
          className={buttonClasses({ variant: 'outline', size: 'lg' })}
          data-testid="show-edit"
        >
          <Pencil aria-hidden="true" />
          Edit in dashboard
        </Link>
      </div>
      {goLive.isError ? (
        <p role="alert" className="text-destructive text-sm" data-testid="show-go-live-error">
          {errorMessage(goLive.error, 'Your room could not be opened. Please try again.')}
        </p>
      ) : null}
    </div>
  );
}

/** Once the show has begun: into the room while live, its replay once ended, a note if missed. */
export function StatusAction({ show, own }: { show: Show; own: boolean }) {
  const room = show.roomName ? `/room/${encodeURIComponent(show.roomName)}` : null;
  if (show.status === 'live' && room) {
    return (
      <Link
        to={room}
        className={buttonClasses({
          size: 'lg',
          className: `w-full text-white sm:w-auto ${LIVE_BADGE_CLASS}`,
        })}
        data-testid="show-watch-live"
      >
        <Radio aria-hidden="true" />
        {own ? 'Open your room' : 'Watch live'}
      </Link>
    );
  }
  if (show.status === 'ended' && room) {
    return (
      <div className="flex flex-col gap-2">
        <p className="text-muted-foreground text-sm">This show has ended.</p>
        <Link
          to={room}
          className={buttonClasses({ variant: 'secondary', size: 'lg', className: 'w-full sm:w-auto' })}
          data-testid="show-replay"
        >
          <PlayCircle aria-hidden="true" />
          Watch the replay
        </Link>
      </div>
    );
  }
  if (show.status === 'missed') {
    return (
      <p
        className="flex items-start gap-2 rounded-lg border border-border bg-muted/40 px-4 py-3 text-muted-foreground text-sm"
        data-testid="show-missed"
      >
        <VideoOff className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        This show did not go live at its time. Follow the seller’s storefront for their next one.
      </p>
    );
  }
  return null;
}
