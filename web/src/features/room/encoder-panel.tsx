import type { Ingest } from '@streamshop/contract/ingest.ts';
import { useQuery } from '@tanstack/react-query';
import { Copy, Eye, EyeOff, MonitorUp, RotateCcw } from 'lucide-react';
import { type ReactNode, type RefObject, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { cn } from '../../lib/cn.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { ingestQueryOptions, useEncodersTaken, useRotateIngestKeyMutation } from './api.ts';
import { copyText, selectText } from './copy-text.ts';
import { HIDDEN_KEY, OBS_HOW_TO } from './encoder-settings.ts';
import { EncoderSettingsList } from './encoder-settings-list.tsx';
import { ENCODER_STATUS_LABELS, type EncoderStatus } from './owner-view.ts';

/**
 * What feeds the stream now: green while an encoder publishes, muted while the page waits for one
 * (or says this browser's camera is live, or that nothing comes in although the stream is live).
 */
function EncoderState({ status }: { status: EncoderStatus }) {
  const connected = status === 'receiving';
  return (
    <Badge
      variant="outline"
      role="status"
      className={cn(
        'shrink-0 gap-1.5',
        connected
          ? 'border-emerald-500/40 bg-emerald-500/15 text-emerald-300'
          : 'border-border bg-muted text-muted-foreground',
      )}
      data-state={status}
      data-testid="encoder-state"
    >
      <span
        className={cn('size-1.5 rounded-full', connected ? 'animate-pulse bg-emerald-400' : 'bg-current')}
        aria-hidden="true"
      />
      {ENCODER_STATUS_LABELS[status]}
    </Badge>
  );
}

/** A named value in a monospace box, with its buttons beside it (under it on a phone). */
function IngestField({
  label,
  valueRef,
  value,
  testId,
  children,
}: {
  label: string;
  valueRef: RefObject<HTMLElement | null>;
  value: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <p className="font-medium text-sm">{label}</p>
      <div className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
        <code
          ref={valueRef}
          className="min-h-10 break-all rounded-md border border-border bg-muted px-3 py-2 font-mono text-sm"
          data-testid={testId}
        >
          {value}
        </code>
        <div className="flex flex-wrap gap-2">{children}</div>
      </div>
    </div>
  );
}

function IngestDetails({ roomName, ingest }: { roomName: string; ingest: Ingest }) {
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const urlRef = useRef<HTMLElement>(null);
  const keyRef = useRef<HTMLElement>(null);
  const rotate = useRotateIngestKeyMutation(roomName);

  const copyUrl = () => void copyText(ingest.rtmpUrl, () => selectText(urlRef.current));
  // The key is copied without being shown; it shows only when it has to be copied by hand.
  const copyKey = () =>
    void copyText(ingest.streamKey, () => {
      flushSync(() => setRevealed(true));
      selectText(keyRef.current);
    });

  const resetKey = () =>
    rotate.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: 'Stream key reset', description: 'Paste the new key into your encoder.' });
      },
      onError: (error) => errorToast('Error', errorMessage(error, 'Could not reset the stream key')),
    });

  return (
    <>
      <IngestField label="Server URL" valueRef={urlRef} value={ingest.rtmpUrl} testId="rtmp-url">
        <Button variant="outline" size="sm" onClick={copyUrl} data-testid="copy-url">
          <Copy aria-hidden="true" />
          Copy<span className="sr-only"> server URL</span>
        </Button>
      </IngestField>
      <IngestField
        label="Stream key"
        valueRef={keyRef}
        value={revealed ? ingest.streamKey : HIDDEN_KEY}
        testId="stream-key"
      >
        <Button
          variant="outline"
          size="sm"
          onClick={() => setRevealed(!revealed)}
          aria-pressed={revealed}
          data-testid="reveal-key"
        >
          {revealed ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
          {revealed ? 'Hide' : 'Reveal'}
          <span className="sr-only"> stream key</span>
        </Button>
        <Button variant="outline" size="sm" onClick={copyKey} data-testid="copy-key">
          <Copy aria-hidden="true" />
          Copy<span className="sr-only"> stream key</span>
        </Button>
      </IngestField>
      <div className="-mt-2 flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <p className="text-muted-foreground text-xs">
          Keep the key secret: anyone who has it can stream to this room.
        </p>
        <Button
          variant="ghost"
          size="sm"
          // Lighter than the destructive fill: small red text on the dark card must stay readable.
          className="-ml-3 text-red-400 hover:text-red-300 sm:ml-0"
          onClick={() => setConfirming(true)}
          data-testid="reset-key"
        >
          <RotateCcw aria-hidden="true" />
          Reset key
        </Button>
      </div>
      <div className="grid gap-2 border-border border-t pt-4">
        <p className="font-medium text-sm">Encoder settings</p>
        <EncoderSettingsList settings={ingest.settings} testId="encoder-settings" />
      </div>
      <p className="text-muted-foreground text-sm" data-testid="obs-how-to">
        {OBS_HOW_TO}
      </p>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!rotate.isPending) setConfirming(open);
        }}
        title="Reset the stream key?"
        description="An encoder using the old key is disconnected."
        cancelLabel="Cancel"
        confirmLabel="Reset key"
        pending={rotate.isPending}
        onConfirm={resetKey}
        testId="reset-key-dialog"
        confirmTestId="reset-key-confirm"
      />
    </>
  );
}

/**
 * "Stream from OBS", for the host under the stage until the stream ends: the RTMP server URL and
 * stream key to paste into an encoder (the key hidden until revealed; Reset key replaces it), the
 * plan's encoder settings, and whether an encoder publishes now (polled). Nothing on a server that
 * takes no encoder (RTMP off).
 */
export function EncoderPanel({ roomName, status }: { roomName: string; status: EncoderStatus }) {
  if (!useEncodersTaken()) return null;
  return <EncoderPanelCard roomName={roomName} status={status} />;
}

function EncoderPanelCard({ roomName, status }: { roomName: string; status: EncoderStatus }) {
  const query = useQuery(ingestQueryOptions(roomName));
  const ingest = query.data;

  let body: ReactNode;
  if (ingest) body = <IngestDetails roomName={roomName} ingest={ingest} />;
  else if (query.isError)
    body = (
      <div className="grid gap-3" role="alert">
        <p className="text-sm">We could not load your stream key.</p>
        <Button variant="outline" className="w-fit" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  else
    body = (
      <div className="grid gap-3" aria-hidden="true">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-24 w-2/3" />
      </div>
    );

  return (
    <Card data-testid="encoder-panel" aria-busy={!ingest && !query.isError}>
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <CardTitle className="flex items-center gap-2 text-lg">
            <MonitorUp className="size-5 text-primary" aria-hidden="true" />
            Stream from OBS
          </CardTitle>
          {ingest ? <EncoderState status={status} /> : null}
        </div>
        <CardDescription>
          Go live from OBS or any RTMP encoder instead of your camera: the stream starts as soon as your
          encoder connects.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">{body}</CardContent>
    </Card>
  );
}
