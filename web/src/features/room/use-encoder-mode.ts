import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ingestAvailabilityQueryOptions, ingestQueryOptions } from './api.ts';

export interface EncoderMode {
  /** The host's page knows whether an encoder publishes (or need not ask): the camera may start. */
  settled: boolean;
  /** An encoder publishes the stream now. */
  connected: boolean;
  /**
   * The stage shows the encoder's stream: an encoder publishes and the browser does not, or one
   * did and left (the stream stays live while it reconnects, or until it ends).
   */
  active: boolean;
}

/**
 * Whether the host's room is streamed from an encoder (OBS) rather than this browser, from the
 * polled ingest answer. `enabled`: the host's page of a stream that has not ended. On a server
 * that takes no encoder (GET /api/ingest) the key is never asked for, and the camera is the way.
 */
export function useEncoderMode(roomName: string, enabled: boolean, broadcasting: boolean): EncoderMode {
  const availability = useQuery({ ...ingestAvailabilityQueryOptions, enabled });
  const on = enabled && availability.data?.rtmp === true;
  const ingest = useQuery({ ...ingestQueryOptions(roomName), enabled: on });
  const connected = on && ingest.data?.encoderConnected === true;
  // An encoder that published took the stream live: it stays the encoder's while it is away, seen
  // on this page or told by the server (a reload while the encoder reconnects).
  const away = on && Boolean(ingest.data?.encoderLeftAt);
  const [wentLive, setWentLive] = useState(false);
  if ((connected || away) && !broadcasting && !wentLive) setWentLive(true);
  return {
    settled: !enabled || (availability.status !== 'pending' && (!on || ingest.status !== 'pending')),
    connected,
    active: on && !broadcasting && (connected || wentLive),
  };
}
