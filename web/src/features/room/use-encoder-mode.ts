import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ingestAvailabilityQueryOptions, ingestQueryKey, ingestQueryOptions } from './api.ts';
import { type EncoderStatus, encoderStatus, type OwnerStageKind, ownerStageKind } from './owner-view.ts';

export interface EncoderMode {
  /** The host's page knows whether an encoder publishes (or need not ask): the camera may start. */
  settled: boolean;
  /** An encoder publishes the stream now. */
  connected: boolean;
  /** The host's stage: this page's camera, or the stream's output as viewers see it. */
  stage: OwnerStageKind;
  /** What feeds the stream, as the OBS panel and the output stage say it. */
  status: EncoderStatus;
}

/**
 * Whether the host's room is streamed from an encoder (OBS) rather than this browser, from the
 * polled ingest answer and the stream's state. `enabled`: the host's page of a stream that has not
 * ended. On a server that takes no encoder (GET /api/ingest) the key is never asked for, and the
 * camera is the way.
 */
export function useEncoderMode(
  roomName: string,
  enabled: boolean,
  { live, broadcasting, cameraChosen }: { live: boolean; broadcasting: boolean; cameraChosen: boolean },
): EncoderMode {
  const availability = useQuery({ ...ingestAvailabilityQueryOptions, enabled });
  const on = enabled && availability.data?.rtmp === true;
  const ingest = useQuery({ ...ingestQueryOptions(roomName), enabled: on });
  const queryClient = useQueryClient();
  // Going live from elsewhere (an encoder's publish): ask at once rather than at the next poll.
  useEffect(() => {
    if (on && live && !broadcasting)
      void queryClient.invalidateQueries({ queryKey: ingestQueryKey(roomName) });
  }, [on, live, broadcasting, queryClient, roomName]);

  const facts = {
    encodersTaken: on,
    encoderConnected: on && ingest.data?.encoderConnected === true,
    // The server says when a live stream's encoder left (also after a reload while it reconnects).
    encoderAway: on && Boolean(ingest.data?.encoderLeftAt),
    live,
    broadcasting,
    cameraChosen,
  };
  return {
    settled: !enabled || (availability.status !== 'pending' && (!on || ingest.status !== 'pending')),
    connected: facts.encoderConnected,
    stage: ownerStageKind(facts),
    status: encoderStatus(facts),
  };
}
