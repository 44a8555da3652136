import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { EncoderPanel } from './encoder-panel.tsx';
import { ObsSetupCard } from './obs-setup-card.tsx';
import type { EncoderStatus } from './owner-view.ts';

configure({ asyncUtilTimeout: 4000 });

const ROOM = 'crate-digging';
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ingest = {
  rtmpUrl: 'rtmp://localhost:1935/live',
  streamKey: 'sk_0123456789abcdef0123456789abcdef',
  encoderConnected: false,
  encoderLeftAt: null,
  settings: {
    videoCodec: 'H.264',
    audioCodec: 'AAC',
    keyframeIntervalSec: 1,
    maxWidth: 854,
    maxHeight: 480,
    resolution: '480p',
    bitrateKbps: 1500,
  },
};

/** The host's OBS parts, with GET /api/ingest answering `rtmp`; the requests made, in order. */
function renderPanels(rtmp: boolean, status: EncoderStatus = 'waiting') {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      if (url === '/api/ingest') return json({ rtmp });
      if (url === `/api/streams/${ROOM}/ingest`) return json(ingest);
      return json({ message: 'No such endpoint' }, 404);
    }),
  );
  render(
    <QueryClientProvider client={createQueryClient({ onUnauthorized: () => {} })}>
      <ObsSetupCard plan="free" />
      <EncoderPanel roomName={ROOM} status={status} />
    </QueryClientProvider>,
  );
  return asked;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Stream from OBS', () => {
  it('shows the key and the encoder’s state when the server takes encoders', async () => {
    renderPanels(true);
    expect((await screen.findByTestId('encoder-state')).textContent).toBe('Waiting for your encoder');
    expect(screen.getByTestId('golive-obs')).toBeTruthy();
  });

  it('says the camera is live instead of waiting for an encoder while this browser broadcasts', async () => {
    renderPanels(true, 'camera');
    const state = await screen.findByTestId('encoder-state');
    expect(state.textContent).toBe('Live from your camera');
    expect(state.getAttribute('data-state')).toBe('camera');
  });

  it('says the encoder is received once it connects, not that the page waits for it', async () => {
    renderPanels(true, 'receiving');
    const state = await screen.findByTestId('encoder-state');
    expect(state.textContent).toBe('Receiving from your encoder');
    expect(state.getAttribute('data-state')).toBe('receiving');
  });

  it('shows nothing, and asks for no key, on a server that takes no encoder', async () => {
    const asked = renderPanels(false);
    await vi.waitFor(() => expect(asked).toContain('/api/ingest'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('encoder-panel')).toBeNull();
    expect(screen.queryByTestId('golive-obs')).toBeNull();
    expect(asked).not.toContain(`/api/streams/${ROOM}/ingest`);
  });
});
