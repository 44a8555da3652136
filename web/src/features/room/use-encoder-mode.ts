import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ingestQueryOptions } from './api.ts';

export interface EncoderMode {
  /** The host's page knows whether an encoder publishes (or need not ask): the camera may start. */
  settled: boolean;
  /** An encoder publishes the stream now. */
  connected: boolean;
  /**
   * The stage shows the encoder's stream: an encoder publishes and the browser does not, or one
   * did on this page and left (the stream stays live while it reconnects, or until it ends).
   */
  active: boolean;
}

/**
 * Whether the host's room is streamed from an encoder (OBS) rather than this browser, from the
 * polled ingest answer. `enabled`: the host's page of a stream that has not ended.
 */
export function useEncoderMode(roomName: string, enabled: boolean, broadcasting: boolean): EncoderMode {
  const ingest = useQuery({ ...ingestQueryOptions(roomName), enabled });
  const connected = enabled && ingest.data?.encoderConnected === true;
  // An encoder that published here took the stream live: it stays the encoder's while it is away.
  const [wentLive, setWentLive] = useState(false);
  if (connected && !broadcasting && !wentLive) setWentLive(true);
  return {
    settled: !enabled || ingest.status !== 'pending',
    connected,
    active: enabled && !broadcasting && (connected || wentLive),
  };
}
