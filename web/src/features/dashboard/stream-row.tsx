import type { Stream } from '@streamshop/contract/catalog.ts';
import { ChartNoAxesColumn, Eye, PlayCircle, Video } from 'lucide-react';
import { LIVE_BADGE_CLASS } from '../../components/product-card.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { formatDate } from '../../lib/format-date.ts';
import { StreamStatsSummary } from './stream-stats.tsx';

/** The recording plays in its room (HLS or an older file), in a new window. */
function openRecording(roomName: string) {
  window.open(`/room/${encodeURIComponent(roomName)}`, '_blank', 'noopener,noreferrer');
}

/** A stream of the seller's, with its recording, its figures and a way to its analytics. */
export function StreamRow({ stream, onAnalytics }: { stream: Stream; onAnalytics: () => void }) {
  return (
    <li>
      <Card className="flex flex-wrap items-center gap-4 p-4" data-testid="dashboard-stream">
        <Video className="size-5 shrink-0 text-primary" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-medium">{stream.title}</h3>
          <p className="mt-1 flex items-center gap-3 text-muted-foreground text-sm">
            <span>{formatDate(stream.createdAt)}</span>
            <span className="inline-flex items-center gap-1">
              <Eye className="size-3.5" aria-hidden="true" />
              {stream.viewCount.toLocaleString('en-US')} views
            </span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {stream.isActive ? (
            <Badge variant="live" className={LIVE_BADGE_CLASS}>
              Live
            </Badge>
          ) : null}
          {stream.vodUrl ? (
            <>
              <Badge variant="secondary">VOD Available</Badge>
              <Button variant="outline" size="sm" onClick={() => openRecording(stream.roomName)}>
                <PlayCircle aria-hidden="true" />
                View Recording
              </Button>
            </>
          ) : null}
          <Button variant="outline" size="sm" onClick={onAnalytics} data-testid="stream-analytics-open">
            <ChartNoAxesColumn aria-hidden="true" />
            Analytics
          </Button>
        </div>
        <StreamStatsSummary streamId={stream.id} className="basis-full border-t pt-3" />
      </Card>
    </li>
  );
}
