import type { Show } from '@streamshop/contract/shows.ts';
import { useQuery } from '@tanstack/react-query';
import { CalendarClock, CalendarPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { ShowDialog } from './show-dialog.tsx';
import { ShowRow } from './show-row.tsx';
import { myShowsQueryOptions, useDeleteShowMutation, useGoLiveFromShowMutation } from './shows-api.ts';
import { LoadFailed, RowsSkeleton, TabPanelHeader } from './tab-panel-parts.tsx';

/** `?schedule=new` (the header's "Schedule a show" link) opens the dialog as the tab opens. */
export const SCHEDULE_SHOW_PARAM = 'schedule';

function ScheduleButton({ onClick, testId }: { onClick: () => void; testId: string }) {
  return (
    <Button onClick={onClick} data-testid={testId}>
      <CalendarPlus aria-hidden="true" />
      Schedule a show
    </Button>
  );
}

/** Asks before deleting a show; the people who asked to be reminded are not told again. */
function DeleteShowDialog({
  show,
  onOpenChange,
}: {
  show: Show | null;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeleteShowMutation();
  const confirm = () => {
    if (!show) return;
    remove.mutate(show.id, {
      onSuccess: () => {
        toast({ title: 'Show deleted' });
        onOpenChange(false);
      },
      onError: (error) => errorToast('Could not delete the show', errorMessage(error, 'Please try again.')),
    });
  };
  const reminded = show?.reminders ?? 0;
  return (
    <ConfirmDialog
      open={show !== null}
      onOpenChange={onOpenChange}
      title="Delete Show"
      description={
        <>
          Delete “{show?.title}”?{' '}
          {reminded > 0
            ? `${reminded.toLocaleString('en-US')} ${reminded === 1 ? 'person asked' : 'people asked'} to be reminded of it. `
            : ''}
          This cannot be undone.
        </>
      }
      cancelLabel="Cancel"
      confirmLabel="Delete"
      pending={remove.isPending}
      onConfirm={confirm}
      testId="delete-show-dialog"
      confirmTestId="delete-show-confirm"
    />
  );
}

/** The dashboard's Shows tab (issue 29): the seller's scheduled, live, ended and missed shows. */
export function ShowsPanel() {
  const shows = useQuery(myShowsQueryOptions);
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<Show | null>(null);
  const [deleting, setDeleting] = useState<Show | null>(null);
  const goLive = useGoLiveFromShowMutation();

  const openSchedule = () => {
    setEditing(null);
    setDialogOpen(true);
  };
  const openEdit = (show: Show) => {
    setEditing(show);
    setDialogOpen(true);
  };

  const scheduleAsked = searchParams.get(SCHEDULE_SHOW_PARAM) === 'new';
  useEffect(() => {
    if (!scheduleAsked) return;
    setEditing(null);
    setDialogOpen(true);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(SCHEDULE_SHOW_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [scheduleAsked, setSearchParams]);

  const startShow = (show: Show) =>
    goLive.mutate(show.id, {
      onSuccess: ({ roomName }) => {
        toast({ title: 'Your show’s room is ready', description: 'Start your camera or OBS to go live.' });
        navigate(`/room/${encodeURIComponent(roomName)}`);
      },
      onError: (error) => errorToast('Could not go live', errorMessage(error, 'Please try again.')),
    });

  return (
    <>
      <TabPanelHeader title="Your Shows">
        <ScheduleButton onClick={openSchedule} testId="schedule-show" />
      </TabPanelHeader>
      {shows.isPending ? (
        <RowsSkeleton />
      ) : shows.isError ? (
        <LoadFailed what="shows" />
      ) : shows.data.shows.length === 0 ? (
        <EmptyState
          icon={CalendarClock}
          title="No Shows Yet"
          description="Schedule a show to tell buyers when you will be live and what you will sell; they can ask to be reminded."
          testId="dashboard-shows-empty"
        >
          <div className="mt-2">
            <ScheduleButton onClick={openSchedule} testId="schedule-show-empty" />
          </div>
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-3" aria-label="Your shows">
          {shows.data.shows.map((show) => (
            <ShowRow
              key={show.id}
              show={show}
              goingLive={goLive.isPending ? goLive.variables === show.id || 'other' : false}
              onGoLive={() => startShow(show)}
              onEdit={() => openEdit(show)}
              onDelete={() => setDeleting(show)}
            />
          ))}
        </ul>
      )}
      <ShowDialog open={dialogOpen} show={editing} onOpenChange={setDialogOpen} />
      <DeleteShowDialog
        show={deleting}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
      />
    </>
  );
}
