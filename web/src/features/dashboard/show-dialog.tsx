import type { Show } from '@streamshop/contract/shows.ts';
import { ImageOff, Loader2, Upload, X } from 'lucide-react';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { FieldError } from '../../components/ui/field-error.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { fieldErrorProps } from '../../lib/form-errors.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { useImageUpload } from '../../lib/use-image-upload.tsx';
import {
  emptyShowForm,
  parseShowEdit,
  parseShowForm,
  SHOW_LABELS,
  type ShowField,
  type ShowFormValues,
  showToFormValues,
} from './show-form.ts';
import { ShowLineupField } from './show-lineup-field.tsx';
import { useSaveShowMutation } from './shows-api.ts';
import { formatInZone, isLocalDateTime, timeZoneChoices, zonedTimeToIso } from './zoned-time.ts';

const CONTROL_CLASSES =
  'flex w-full rounded-md border border-input bg-background px-3 py-2 text-base text-foreground placeholder:text-muted-foreground md:text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-red-400';

/** "Starts Tue, Dec 1, 2026, 7:00 PM EST": the chosen wall time read back, once it is one. */
function startsAtHint(values: ShowFormValues): string {
  if (!isLocalDateTime(values.startsAt)) return 'Buyers see the time in their own time zone too.';
  try {
    return `Starts ${formatInZone(zonedTimeToIso(values.startsAt, values.timeZone), values.timeZone)}.`;
  } catch {
    return 'Choose the time zone the time is in.';
  }
}

/** The cover: a preview, an upload button and a way to take it off. */
function CoverField({
  coverUrl,
  upload,
  error,
  errorId,
  onChange,
}: {
  coverUrl: string;
  upload: ReturnType<typeof useImageUpload>;
  error: string | undefined;
  errorId: string;
  onChange: (url: string) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 font-medium text-sm leading-none">{SHOW_LABELS.coverUrl}</legend>
      <div className="flex flex-wrap items-start gap-3">
        <div className="flex aspect-video w-40 shrink-0 items-center justify-center overflow-hidden rounded-md border border-border bg-muted">
          {coverUrl ? (
            <img
              src={coverUrl}
              alt="Cover preview"
              width={160}
              height={90}
              className="size-full object-cover"
              data-testid="show-cover-preview"
            />
          ) : (
            <ImageOff className="size-6 text-muted-foreground" aria-hidden="true" />
          )}
        </div>
        <div className="grid gap-2">
          {upload.input}
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              name="coverUrl"
              disabled={upload.uploading}
              onClick={upload.choose}
              {...fieldErrorProps(errorId, error)}
              data-testid="show-cover-upload"
            >
              {upload.uploading ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Upload aria-hidden="true" />
              )}
              {upload.uploading ? 'Uploading...' : coverUrl ? 'Change cover' : 'Upload cover'}
            </Button>
            {coverUrl ? (
              <Button variant="ghost" size="sm" onClick={() => onChange('')} data-testid="show-cover-remove">
                <X aria-hidden="true" />
                Remove
              </Button>
            ) : null}
          </div>
          <p className="text-muted-foreground text-xs">
            JPEG, PNG or WebP, up to 5 MB. Wide images fit best.
          </p>
        </div>
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

function ShowForm({ show, onDone }: { show: Show | null; onDone: () => void }) {
  const uid = useId();
  const ids = (name: string) => `${uid}-${name}`;
  const initial = useMemo(() => (show ? showToFormValues(show) : emptyShowForm()), [show]);
  const [values, setValues] = useState<ShowFormValues>(initial);
  const fieldErrors = useFieldErrors(SHOW_LABELS);
  const { errors } = fieldErrors;
  const save = useSaveShowMutation();
  // Some 400 zones: drawn once, not again on every key pressed in the other fields.
  const zoneOptions = useMemo(
    () =>
      timeZoneChoices([initial.timeZone]).map((zone) => (
        <option key={zone} value={zone}>
          {zone.replaceAll('_', ' ')}
        </option>
      )),
    [initial.timeZone],
  );
  const upload = useImageUpload((url) => set('coverUrl', url), 'show-cover-file');

  const set = <K extends ShowField>(key: K, value: ShowFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    fieldErrors.clear(key);
    // The time is read in the zone: a new zone may mend (or make) the time's error.
    if (key === 'timeZone') fieldErrors.clear('startsAt');
  };
  const field = (name: ShowField, hint?: string) => ({
    id: ids(name),
    name,
    ...fieldErrorProps(ids(`${name}-error`), errors[name], hint ? ids(`${name}-hint`) : undefined),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = show ? parseShowEdit(values, initial) : parseShowForm(values);
    if (!checked.ok) {
      fieldErrors.show(checked.errors);
      return;
    }
    fieldErrors.clearAll();
    if (show && Object.keys(checked.body).length === 0) {
      onDone();
      return;
    }
    save.mutate(
      { id: show?.id ?? null, body: checked.body },
      {
        onSuccess: (saved) => {
          toast({
            title: show ? 'Show updated' : 'Show scheduled',
            description: `${saved.title}: ${formatInZone(saved.startsAt, saved.timeZone)}`,
          });
          onDone();
        },
        onError: (error) => {
          if (!fieldErrors.showServer(error)) {
            errorToast('Could not save the show', errorMessage(error, 'Please try again.'));
          }
        },
      },
    );
  }

  return (
    <form
      ref={fieldErrors.formRef}
      className="flex min-h-0 flex-col gap-4"
      onSubmit={onSubmit}
      noValidate
      data-testid="show-form"
    >
      {/* The fields scroll; the heading above and the buttons below stay in view. */}
      <div className="-mx-6 grid min-h-0 flex-1 gap-4 overflow-y-auto px-6 py-1">
        <div className="grid gap-2">
          <Label htmlFor={ids('title')}>{SHOW_LABELS.title}</Label>
          <Input
            {...field('title')}
            value={values.title}
            maxLength={200}
            placeholder="Friday night vinyl drop"
            onChange={(event) => set('title', event.target.value)}
            data-testid="show-title-input"
          />
          <FieldError id={ids('title-error')} message={errors.title} />
        </div>

        <div className="grid gap-2">
          <Label htmlFor={ids('description')}>{SHOW_LABELS.description}</Label>
          <textarea
            {...field('description')}
            className={`${CONTROL_CLASSES} min-h-20`}
            value={values.description}
            maxLength={2000}
            rows={3}
            placeholder="What you will show, and anything buyers should know"
            onChange={(event) => set('description', event.target.value)}
            data-testid="show-description-input"
          />
          <FieldError id={ids('description-error')} message={errors.description} />
        </div>

        <div className="grid items-start gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={ids('startsAt')}>{SHOW_LABELS.startsAt}</Label>
            <Input
              {...field('startsAt', 'hint')}
              type="datetime-local"
              value={values.startsAt}
              onChange={(event) => set('startsAt', event.target.value)}
              data-testid="show-starts-at-input"
            />
            <FieldError id={ids('startsAt-error')} message={errors.startsAt} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids('timeZone')}>{SHOW_LABELS.timeZone}</Label>
            <select
              {...field('timeZone')}
              className={`${CONTROL_CLASSES} h-10`}
              value={values.timeZone}
              onChange={(event) => set('timeZone', event.target.value)}
              data-testid="show-time-zone-select"
            >
              {zoneOptions}
            </select>
            <FieldError id={ids('timeZone-error')} message={errors.timeZone} />
          </div>
          <p
            id={ids('startsAt-hint')}
            className="text-muted-foreground text-xs sm:col-span-2"
            data-testid="show-starts-at-hint"
          >
            {startsAtHint(values)}
          </p>
        </div>

        <CoverField
          coverUrl={values.coverUrl}
          upload={upload}
          error={errors.coverUrl}
          errorId={ids('coverUrl-error')}
          onChange={(url) => set('coverUrl', url)}
        />

        <ShowLineupField
          id={ids('productIds')}
          productIds={values.productIds}
          error={errors.productIds}
          onChange={(productIds) => set('productIds', productIds)}
        />
      </div>

      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending || upload.uploading} data-testid="show-submit">
          {save.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {show ? 'Save Changes' : 'Schedule Show'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Schedule mode (show null) or edit mode; Cancel or success closes it, and it opens with a fresh form. */
export function ShowDialog({
  open,
  show,
  onOpenChange,
}: {
  open: boolean;
  show: Show | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="flex flex-col overflow-hidden sm:max-w-xl" data-testid="show-dialog">
        <DialogHeader>
          <DialogTitle>{show ? 'Edit Show' : 'Schedule a Show'}</DialogTitle>
          <DialogDescription>
            {show
              ? 'Change the details buyers see before the show starts.'
              : 'Announce a show: buyers can ask to be reminded, and you go live from it at its time.'}
          </DialogDescription>
        </DialogHeader>
        {open ? <ShowForm key={show?.id ?? 'new'} show={show} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
