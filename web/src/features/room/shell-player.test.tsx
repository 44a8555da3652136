import { render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScriptedSocket } from '../../lib/scripted-socket.ts';
import { LiveVideo } from './live-video.tsx';
import type { PlayerStatus } from './media-player.ts';
import {
  dropShellPlayer,
  SHELL_PLAYER_TTL_MS,
  shellPlayerStatus,
  shellVideo,
  shellVideoStarted,
  startShellPlayer,
  takeShellPlayer,
} from './shell-player.ts';

const ROOM = 'crate-digging';

/** The room shell's preview as the build renders it: the stage with its slot and waiting notice. */
function shellPreview(): HTMLElement {
  const stage = document.createElement('div');
  stage.innerHTML =
    '<div class="contents" data-live-video-slot="" data-video-class="size-full object-contain"></div>' +
    '<div data-testid="player-status">Connecting to the live video…</div>';
  document.body.append(stage);
  const slot = stage.querySelector<HTMLElement>('[data-live-video-slot]');
  if (!slot) throw new Error('no slot');
  return slot;
}

function RoomVideo({ roomName }: { roomName: string }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  return (
    <LiveVideo roomName={roomName} videoRef={videoRef} className="absolute size-full" data={{ path: 'ws' }} />
  );
}

beforeEach(() => {
  ScriptedSocket.made = [];
  vi.stubGlobal('WebSocket', ScriptedSocket);
  // This test browser plays nothing: a paused shell video is asked to play when taken over.
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue();
});

afterEach(() => {
  dropShellPlayer();
  document.body.innerHTML = '';
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the room shell player', () => {
  it('puts a muted inline autoplay video in the slot and opens the room’s media socket', () => {
    const slot = shellPreview();
    startShellPlayer(ROOM, slot);
    const video = slot.querySelector('video');
    expect(video).not.toBeNull();
    expect(shellVideo(ROOM)).toBe(video);
    expect(video?.muted).toBe(true);
    expect(video?.autoplay).toBe(true);
    expect(video?.hasAttribute('playsinline')).toBe(true);
    expect(video?.className).toBe('size-full object-contain');
    expect(video?.dataset.testid).toBe('live-video');
    expect(video?.dataset.path).toBe('ws');
    expect(ScriptedSocket.made.map((socket) => socket.url)).toEqual([
      `ws://${window.location.host}/ws/media?room=${ROOM}`,
    ]);
    expect(shellPlayerStatus(ROOM)).toBe('waiting');
    expect(shellVideo('another-room')).toBeUndefined();
  });

  it('is taken over by the room’s live video: the same element, moved, and the same socket', () => {
    const slot = shellPreview();
    startShellPlayer(ROOM, slot);
    const video = shellVideo(ROOM);
    render(<RoomVideo roomName={ROOM} />);
    const shown = document.querySelectorAll('video');
    expect(shown).toHaveLength(1);
    expect(shown[0]).toBe(video);
    expect(slot.contains(video ?? null)).toBe(false);
    expect(video?.className).toBe('absolute size-full');
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalledTimes(1);

    const statuses: PlayerStatus[] = [];
    if (!video) throw new Error('no shell video');
    expect(takeShellPlayer('another-room', video, (status) => statuses.push(status))).toBeUndefined();
    expect(
      takeShellPlayer(ROOM, document.createElement('video'), (status) => statuses.push(status)),
    ).toBeUndefined();
    const player = takeShellPlayer(ROOM, video, (status) => statuses.push(status));
    expect(player).toBeDefined();
    expect(statuses).toEqual(['waiting']);
    // Taken once: nothing is left to take, and the player keeps its one connection.
    expect(shellVideo(ROOM)).toBeUndefined();
    expect(ScriptedSocket.made).toHaveLength(1);
    // Its statuses now go to the taker (no MediaSource in this test browser: "unsupported").
    const socket = ScriptedSocket.made[0];
    socket?.open();
    socket?.receive(JSON.stringify({ type: 'media_reset', mimeType: 'video/mp4; codecs="avc1.64001f"' }));
    expect(statuses).toEqual(['waiting', 'unsupported']);
    // Dropping after a take stops nothing: the player is the taker's.
    dropShellPlayer();
    expect(socket?.closedWith).toBeUndefined();
    player?.destroy();
    expect(socket?.closedWith).toBeDefined();
  });

  it('makes a video of its own for a room with no shell player', () => {
    const slot = shellPreview();
    startShellPlayer(ROOM, slot);
    render(<RoomVideo roomName="another-room" />);
    expect(document.querySelectorAll('video')).toHaveLength(2);
    expect(slot.querySelector('video')).toBe(shellVideo(ROOM));
  });

  it('is stopped and its video removed when nobody takes it', () => {
    const slot = shellPreview();
    startShellPlayer(ROOM, slot);
    dropShellPlayer();
    expect(slot.querySelector('video')).toBeNull();
    expect(ScriptedSocket.made[0]?.closedWith).toBeDefined();
    expect(shellVideo(ROOM)).toBeUndefined();
  });

  it(`is dropped by itself ${SHELL_PLAYER_TTL_MS / 1000} s after it started when nobody took it`, () => {
    vi.useFakeTimers();
    const slot = shellPreview();
    startShellPlayer(ROOM, slot);
    vi.advanceTimersByTime(SHELL_PLAYER_TTL_MS - 1);
    expect(shellVideo(ROOM)).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(shellVideo(ROOM)).toBeUndefined();
    expect(slot.querySelector('video')).toBeNull();
  });

  it('does not start in a preview the app has already replaced', () => {
    const slot = shellPreview();
    slot.parentElement?.remove();
    startShellPlayer(ROOM, slot);
    expect(shellVideo(ROOM)).toBeUndefined();
    expect(ScriptedSocket.made).toHaveLength(0);
  });

  describe('the head start it gets before the app is asked for', () => {
    /** Whether the promise has settled once pending callbacks have run. */
    async function settled(promise: Promise<void>): Promise<boolean> {
      let done = false;
      void promise.then(() => {
        done = true;
      });
      await Promise.resolve();
      await Promise.resolve();
      return done;
    }

    it('ends at once with no shell player', async () => {
      expect(await settled(shellVideoStarted(800))).toBe(true);
    });

    it('ends when the room has no video yet (media_idle)', async () => {
      startShellPlayer(ROOM, shellPreview());
      const started = shellVideoStarted(800);
      expect(await settled(started)).toBe(false);
      ScriptedSocket.made[0]?.open();
      ScriptedSocket.made[0]?.receive(JSON.stringify({ type: 'media_idle' }));
      expect(await settled(started)).toBe(true);
    });

    it('ends when the player can tell how it goes (here: no MediaSource, unsupported)', async () => {
      startShellPlayer(ROOM, shellPreview());
      const started = shellVideoStarted(800);
      ScriptedSocket.made[0]?.open();
      expect(await settled(started)).toBe(false);
      ScriptedSocket.made[0]?.receive(JSON.stringify({ type: 'media_reset', mimeType: 'video/mp4' }));
      expect(await settled(started)).toBe(true);
    });

    it('ends after the time given when the video is slow to come', async () => {
      vi.useFakeTimers();
      startShellPlayer(ROOM, shellPreview());
      const started = shellVideoStarted(800);
      vi.advanceTimersByTime(799);
      expect(await settled(started)).toBe(false);
      vi.advanceTimersByTime(1);
      expect(await settled(started)).toBe(true);
    });

    it('ends when the shell player is dropped', async () => {
      startShellPlayer(ROOM, shellPreview());
      const started = shellVideoStarted(800);
      dropShellPlayer();
      expect(await settled(started)).toBe(true);
    });
  });
});
