import type { Stream } from '@streamshop/contract/catalog.ts';
import type { ClientMessage } from '@streamshop/contract/live.ts';
import {
  ChevronLeft,
  Expand,
  Eye,
  MessageSquare,
  MessageSquareOff,
  Shrink,
  Volume2,
  VolumeX,
} from 'lucide-react';
import { type ReactNode, useRef, useState } from 'react';
import { Link } from 'react-router';
import { FollowButton } from '../../components/follow-button.tsx';
import { LIVE_BADGE_CLASS } from '../../components/product-card.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/cn.ts';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { AuctionBidderCard } from './auction-bidder-card.tsx';
import { ChatComposer } from './chat-composer.tsx';
import { ChatOverlay } from './chat-overlay.tsx';
import type { RoomState } from './chat-state.ts';
import { GiveawayCard } from './giveaway-card.tsx';
import { type FitChoice, toggledFit, useImmersivePage, videoFit } from './immersive.ts';
import { LiveVideo } from './live-video.tsx';
import { PinnedProducts } from './pinned-products.tsx';
import { RoomCountdown } from './room-header.tsx';
import { RoomShop } from './room-shop.tsx';
import type { ShopState } from './shop-state.ts';
import { useLivePlayer } from './use-live-player.ts';
import type { RoomAuction } from './use-room-auction.ts';
import type { RoomGiveaway } from './use-room-giveaway.ts';
import { PlayerWaiting, useSound, waitingTextFor } from './viewer-stage.tsx';

/** A round control on the right of the video, its name said and shown. */
function RailButton({
  label,
  pressed,
  onClick,
  children,
  testId,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  children: ReactNode;
  testId: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={pressed}
      className="flex flex-col items-center gap-1 rounded-lg p-1 text-white text-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid={testId}
    >
      <span className="flex size-11 items-center justify-center rounded-full bg-black/55 backdrop-blur">
        {children}
      </span>
      {/* Sideways there is no height for the names: they stay for screen readers. */}
      <span className="rounded bg-black/55 px-1 [text-shadow:0_1px_2px_black] landscape:sr-only">
        {label}
      </span>
    </button>
  );
}

/**
 * A viewer's live room on a phone (ADR 0025): the video fills the screen, and over it, on scrims,
 * the host with Follow, the LIVE badge, viewers and time left; the sound, fit and chat controls;
 * the running auction or giveaway, the pinned product, the last chat lines with the input, and
 * the Shop button. Buying opens a half-height sheet, so the video stays in sight and sound above
 * it. Nothing sits under a notch or the home indicator (safe-area insets).
 */
export function PhoneRoom({
  roomName,
  stream,
  live,
  secondsLeft,
  state,
  connected,
  canChat,
  send,
  shop,
  auction,
  giveaway,
}: {
  roomName: string;
  stream: Stream | undefined;
  live: boolean;
  secondsLeft: number | null;
  state: RoomState;
  connected: boolean;
  canChat: boolean;
  send: (message: ClientMessage) => boolean;
  shop: ShopState;
  auction: RoomAuction;
  giveaway: RoomGiveaway;
}) {
  useImmersivePage();
  const hostHandle = stream?.owner.handle ?? '';
  const videoRef = useRef<HTMLVideoElement>(null);
  const { status, path, engine } = useLivePlayer(roomName, videoRef, true);
  const sound = useSound(videoRef);
  const [videoSize, setVideoSize] = useState<{ width: number; height: number } | null>(null);
  const [fitChoice, setFitChoice] = useState<FitChoice>('auto');
  const [chatShown, setChatShown] = useState(true);
  const playing = status === 'playing';
  const portraitScreen = useMediaQuery('(orientation: portrait)');
  const fit = videoFit(videoSize, portraitScreen, fitChoice);
  const measure = (video: HTMLVideoElement) => {
    if (video.videoWidth) setVideoSize({ width: video.videoWidth, height: video.videoHeight });
  };

  return (
    <section
      className="immersive-room fixed inset-x-0 z-40 overflow-hidden bg-black text-white"
      aria-busy={stream === undefined}
      data-testid="phone-room"
    >
      <LiveVideo
        roomName={roomName}
        videoRef={videoRef}
        className={cn('absolute inset-0 size-full', fit === 'cover' ? 'object-cover' : 'object-contain')}
        poster={stream?.thumbnailUrl}
        onSizeChange={measure}
        // A tap on the picture hides or brings back the chat (the rail's button does the same).
        onClick={() => setChatShown((shown) => !shown)}
        data={{ path, engine, fit }}
      />
      {!playing ? <PlayerWaiting status={status} text={waitingTextFor(live)} /> : null}

      {/* Scrims: the overlay's text reads over any picture. */}
      <div className="pointer-events-none absolute inset-x-0 top-0 h-40 bg-gradient-to-b from-black/75 to-transparent" />
      <div className="pointer-events-none absolute inset-x-0 bottom-0 h-[60%] bg-gradient-to-t from-black/85 via-black/45 to-transparent" />

      <header className="absolute inset-x-0 top-0 grid gap-1.5 pt-[max(0.75rem,env(safe-area-inset-top))] pr-[max(0.75rem,env(safe-area-inset-right))] pl-[max(0.75rem,env(safe-area-inset-left))]">
        <div className="flex items-center gap-2">
          <Link
            to="/explore"
            aria-label="Back to Marketplace"
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-black/55 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            data-testid="room-back"
          >
            <ChevronLeft className="size-5" aria-hidden="true" />
          </Link>
          <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1">
            {hostHandle ? (
              <Link
                to={`/s/${encodeURIComponent(hostHandle)}`}
                className="truncate font-semibold text-sm [text-shadow:0_1px_2px_black]"
                data-testid="room-host"
              >
                @{hostHandle}
              </Link>
            ) : null}
            <FollowButton handle={hostHandle} className="[&_[data-testid=follower-count]]:hidden" />
          </div>
          {live ? (
            <Badge
              variant="live"
              className={`shrink-0 gap-1.5 uppercase ${LIVE_BADGE_CLASS}`}
              data-testid="live-badge"
            >
              <span className="size-1.5 animate-pulse rounded-full bg-white" aria-hidden="true" />
              Live
            </Badge>
          ) : null}
          {state.viewerCount !== null ? (
            <span
              className="inline-flex shrink-0 items-center gap-1 rounded-md bg-black/55 px-2 py-1 text-xs tabular-nums"
              data-testid="viewer-count"
            >
              <Eye className="size-3.5" aria-hidden="true" />
              <span>{state.viewerCount}</span>
              <span className="sr-only">{state.viewerCount === 1 ? 'viewer' : 'viewers'}</span>
            </span>
          ) : null}
        </div>
        <div className="flex items-start gap-2 pl-11">
          <h1
            className="min-w-0 flex-1 break-words font-semibold text-sm [text-shadow:0_1px_2px_black]"
            data-testid="room-title"
          >
            {stream?.title ?? 'Live Stream'}
          </h1>
          {secondsLeft !== null ? (
            <RoomCountdown
              secondsLeft={secondsLeft}
              className="shrink-0 gap-1 bg-black/55 px-2 py-1 text-xs"
              iconClassName="size-3.5"
            />
          ) : null}
        </div>
      </header>

      <div className="absolute top-[22%] right-[max(0.5rem,env(safe-area-inset-right))] grid justify-items-center gap-2 landscape:top-20">
        <RoomShop roomName={roomName} shop={shop} hostHandle={hostHandle} compact />
        {playing ? (
          <RailButton
            label={sound.muted ? 'Unmute' : 'Mute'}
            pressed={!sound.muted}
            onClick={sound.toggle}
            testId="unmute"
          >
            {sound.muted ? (
              <VolumeX className="size-5" aria-hidden="true" />
            ) : (
              <Volume2 className="size-5" aria-hidden="true" />
            )}
          </RailButton>
        ) : null}
        <RailButton
          label={fit === 'cover' ? 'Fit' : 'Fill'}
          onClick={() => setFitChoice(toggledFit(fit, videoFit(videoSize, portraitScreen, 'auto')))}
          testId="video-fit"
        >
          {fit === 'cover' ? (
            <Shrink className="size-5" aria-hidden="true" />
          ) : (
            <Expand className="size-5" aria-hidden="true" />
          )}
        </RailButton>
        <RailButton
          label={chatShown ? 'Hide chat' : 'Show chat'}
          pressed={!chatShown}
          onClick={() => setChatShown((shown) => !shown)}
          testId="chat-visibility"
        >
          {chatShown ? (
            <MessageSquareOff className="size-5" aria-hidden="true" />
          ) : (
            <MessageSquare className="size-5" aria-hidden="true" />
          )}
        </RailButton>
      </div>

      {/* The cards and the chat lines scroll above the input, which stays at the bottom. */}
      <div className="absolute inset-x-0 bottom-0 flex max-h-[62%] flex-col gap-2 pb-[max(0.75rem,env(safe-area-inset-bottom))] pl-[max(0.75rem,env(safe-area-inset-left))] landscape:max-h-[78%] landscape:max-w-[60%]">
        <div className="grid min-h-0 gap-2 overflow-y-auto overscroll-contain pr-[calc(max(0.5rem,env(safe-area-inset-right))+4.5rem)] landscape:pr-3">
          {live ? <AuctionBidderCard room={auction} compact /> : null}
          {live ? <GiveawayCard room={giveaway} hostHandle={hostHandle} /> : null}
          <PinnedProducts roomName={roomName} shop={shop} canBuy />
          <ChatOverlay messages={state.messages} shown={chatShown} hostHandle={hostHandle} />
        </div>
        <ChatComposer
          className="shrink-0 pr-[max(0.75rem,env(safe-area-inset-right))] landscape:pr-3"
          error={state.error}
          canChat={canChat}
          connected={connected}
          send={send}
          inputClassName="border-white/25 bg-black/55 text-white placeholder:text-zinc-300"
        />
      </div>
    </section>
  );
}
