import { LivePlayer, mark, type PlayerStatus } from './media-player.ts';

/**
 * The room shell's player (docs/decisions/0027): on a room page the server sends a preview of the
 * room (web/scripts/prerender.mjs) with an empty place for the live video. Before the app's code
 * has loaded, the page's entry script (app/early-room.ts) puts a <video> there and starts playing
 * the room's WebSocket video into it, so a late joiner's first frame waits on the socket only.
 * When the app renders the room, its live video (live-video.tsx) takes this element and this
 * player over, playing on; if nothing takes them they are dropped (a host's own room, a slow app).
 */

/** A shell player nobody took by then is stopped and its video removed. */
export const SHELL_PLAYER_TTL_MS = 15_000;

interface ShellPlayer {
  roomName: string;
  video: HTMLVideoElement;
  player: LivePlayer;
  status: PlayerStatus;
  /** The preview's place for the video. */
  slot: HTMLElement;
  /** The taker's status callback, once taken. */
  onStatus: ((status: PlayerStatus) => void) | undefined;
  expires: ReturnType<typeof setTimeout>;
}

let current: ShellPlayer | undefined;
/** Resolved when the shell player's video starts playing (or it is taken or dropped). */
let started: (() => void)[] = [];

function settleStarted(): void {
  for (const resolve of started) resolve();
  started = [];
}

/** A <video> for the room's live stream: muted autoplay inline, as browsers require to start it. */
export function createLiveVideo(doc: Document = document): HTMLVideoElement {
  const video = doc.createElement('video');
  video.autoplay = true;
  video.muted = true;
  video.setAttribute('playsinline', '');
  video.setAttribute('aria-label', 'Live video');
  video.dataset.testid = 'live-video';
  return video;
}

/**
 * Starts the room's WebSocket video in the room shell's preview: a <video> in `slot` (with the
 * class the slot names in data-video-class), played at once. The preview's waiting notice beside
 * it is hidden once the video plays.
 */
export function startShellPlayer(roomName: string, slot: HTMLElement): void {
  // The app may have replaced the preview already (its code came first).
  if (current || !slot.isConnected) return;
  mark('shell-start');
  const video = createLiveVideo(slot.ownerDocument);
  video.className = slot.dataset.videoClass ?? '';
  video.dataset.path = 'ws';
  slot.append(video);
  const notice = slot.parentElement?.querySelector<HTMLElement>('[data-testid="player-status"]');
  const shell: ShellPlayer = {
    roomName,
    video,
    status: 'waiting',
    slot,
    onStatus: undefined,
    player: new LivePlayer(
      roomName,
      video,
      (status) => {
        shell.status = status;
        if (status !== 'waiting') settleStarted();
        if (notice && status === 'playing') notice.hidden = true;
        shell.onStatus?.(status);
      },
      // Nothing to play yet (a room not started): the app need not wait for it.
      settleStarted,
    ),
    expires: setTimeout(() => dropShellPlayer(), SHELL_PLAYER_TTL_MS),
  };
  current = shell;
  shell.player.start();
}

/**
 * Resolves once the shell player's video plays (or can tell it will not: ended, unsupported, no
 * video yet), once nobody plays in the shell, or after `maxMs`, whichever comes first.
 */
export function shellVideoStarted(maxMs: number): Promise<void> {
  if (current?.status !== 'waiting') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxMs);
    started.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The shell's video for `roomName`, if its player still runs (the taker moves it into its place). */
export function shellVideo(roomName: string): HTMLVideoElement | undefined {
  return current?.roomName === roomName ? current.video : undefined;
}

/** The shell player's status for `roomName` ('waiting' when there is none): the taker starts from it. */
export function shellPlayerStatus(roomName: string): PlayerStatus {
  return current?.roomName === roomName ? current.status : 'waiting';
}

/**
 * The shell's running player, if it plays `roomName` into `video`: from now on the caller's
 * (its statuses go to `onStatus`, starting with the current one; destroying it is the caller's).
 */
export function takeShellPlayer(
  roomName: string,
  video: HTMLVideoElement,
  onStatus: (status: PlayerStatus) => void,
): LivePlayer | undefined {
  const shell = current;
  if (!shell || shell.roomName !== roomName || shell.video !== video) return undefined;
  clearTimeout(shell.expires);
  shell.onStatus = onStatus;
  current = undefined;
  settleStarted();
  onStatus(shell.status);
  return shell.player;
}

/**
 * Stops a shell player nobody took (the app rendered something else, or came too late), and
 * removes its video unless a live video has already moved it into its own place.
 */
export function dropShellPlayer(): void {
  const shell = current;
  if (!shell) return;
  current = undefined;
  settleStarted();
  clearTimeout(shell.expires);
  shell.player.destroy();
  if (shell.video.parentElement === shell.slot) shell.video.remove();
}
