import type { Stream } from '@streamshop/contract/catalog.ts';
import { ROOM_NAME_PATTERN } from '@streamshop/contract/room-urls.ts';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage, parseApiError } from '../../lib/api/client.ts';
import { roomRoleQueryOptions } from '../../lib/api/moderation.ts';
import { secondsUntil } from '../../lib/countdown.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { useNow } from '../../lib/use-now.ts';
import { streamQueryOptions, useStreamControlMutation } from './api.ts';
import { AuctionBidderCard } from './auction-bidder-card.tsx';
import { Broadcaster } from './broadcaster.ts';
import { ChatPanel } from './chat-panel.tsx';
import { ChatReplayPanel } from './chat-replay-panel.tsx';
import { EncoderPanel } from './encoder-panel.tsx';
import { EncoderStage } from './encoder-stage.tsx';
import { EndedStage } from './ended-stage.tsx';
import { GiveawayCard } from './giveaway-card.tsx';
import { IMMERSIVE_QUERY } from './immersive.ts';
import { LineupPanel } from './lineup-panel.tsx';
import { OwnerStage } from './owner-stage.tsx';
import { type CameraAction, cameraAction } from './owner-view.ts';
import { PhoneRoom } from './phone-room.tsx';
import { PinnedProducts } from './pinned-products.tsx';
import { ReplayAuctions } from './replay-auctions.tsx';
import { ReplayShop } from './replay-shop.tsx';
import { RoomHeader } from './room-header.tsx';
import { RoomShop } from './room-shop.tsx';
import { CAMERA_ERROR_MESSAGE, CAMERA_ERROR_TITLE, useCamera } from './use-camera.ts';
import { useEncoderMode } from './use-encoder-mode.ts';
import { useRoomSocket } from './use-room-socket.ts';
import { ViewerStage } from './viewer-stage.tsx';

function RoomNotice({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="font-bold text-3xl tracking-tight">Live Stream</h1>
      <Card className="mt-6">
        <CardContent className="flex items-start gap-3 p-6">
          <AlertTriangle className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
          <div className="grid gap-3">{children}</div>
        </CardContent>
      </Card>
    </section>
  );
}

/** /room/:name: the host's studio or the viewers' player, with the Live Chat panel. */
export function RoomPage() {
  const { name = '' } = useParams();
  const valid = ROOM_NAME_PATTERN.test(name);
  const query = useQuery({ ...streamQueryOptions(name), enabled: valid });
  usePageTitle(query.data?.title ?? 'Live Stream');

  if (!valid || (query.isError && parseApiError(query.error).status === 404)) {
    return (
      <RoomNotice>
        <p className="font-medium" data-testid="room-invalid">
          Invalid room URL
        </p>
        <Link to="/explore" className={buttonClasses({ variant: 'outline', className: 'w-fit' })}>
          Back to Marketplace
        </Link>
      </RoomNotice>
    );
  }
  if (query.isError) {
    return (
      <RoomNotice>
        <p className="font-medium">We could not load this stream.</p>
        <button
          type="button"
          className={buttonClasses({ variant: 'outline', className: 'w-fit' })}
          onClick={() => void query.refetch()}
        >
          Try again
        </button>
      </RoomNotice>
    );
  }
  // The room renders before its stream has loaded: a viewer's player starts at once (its
  // connection is usually open already, see app/early-room.ts) and stays when the stream comes.
  return <Room roomName={name} stream={query.data} />;
}

/** The room; until `stream` has loaded, as a viewer would see it, with placeholders. */
function Room({ roomName, stream }: { roomName: string; stream: Stream | undefined }) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const hostHandle = stream?.owner.handle ?? '';
  const isHost = stream !== undefined && user?.handle === hostHandle;
  const { state, status, send, shop, shopLoadFailed, auction, giveaway } = useRoomSocket(
    roomName,
    true,
    user?.handle ?? null,
    isHost,
  );
  // The seller's moderators run the room's shop too.
  const role = useQuery({ ...roomRoleQueryOptions(roomName), enabled: user !== null && !isHost });
  const runsShop = isHost || role.data?.canModerate === true;

  const ended = state.ended || (stream !== undefined && !stream.isActive && stream.startedAt !== null);
  const endsAt = ended ? null : (state.endsAt ?? (stream?.isActive ? stream.endsAt : null));
  // Live once started; a stream without an end (the always-live demo room) shows no countdown.
  // Not yet loaded: most who open a room come to watch it live.
  const live = !ended && (endsAt !== null || (stream?.isActive ?? true));
  const now = useNow(live);
  const secondsLeft = ended ? null : live ? secondsUntil(endsAt, now) : (stream?.durationSec ?? null);

  // --- The host's side: camera or encoder (OBS), publisher, start and end. ---
  const [broadcasting, setBroadcasting] = useState(false);
  // While live from elsewhere (a reload, another page), the seller chose to send this camera.
  const [cameraChosen, setCameraChosen] = useState(false);
  // The button pressed keeps its place while the start call runs (the stream may go live first).
  const [pressed, setPressed] = useState<CameraAction>('start');
  const startMutation = useStreamControlMutation(roomName, 'start');
  const endMutation = useStreamControlMutation(roomName, 'end');
  const encoder = useEncoderMode(roomName, isHost && !ended, {
    live,
    // Starting counts: the stream can go live before the start call answers.
    broadcasting: broadcasting || startMutation.isPending,
    cameraChosen,
  });
  // An encoder that connects takes the stage back from a camera chosen while none did.
  if (encoder.connected && cameraChosen) setCameraChosen(false);
  // No camera while the stage shows the stream's output; none until the page knows which it shows.
  const camera = useCamera(isHost && !ended && encoder.settled && encoder.stage === 'camera');
  const broadcasterRef = useRef<Broadcaster | null>(null);
  const [replayVideo, setReplayVideo] = useState<HTMLVideoElement | null>(null);
  const finishing = useRef(false);

  useEffect(() => {
    if (camera.camera.status === 'error') {
      errorToast(CAMERA_ERROR_TITLE, CAMERA_ERROR_MESSAGE);
    }
  }, [camera.camera.status]);

  // Leaving the page stops the publisher; the camera hook stops its own tracks.
  useEffect(() => () => broadcasterRef.current?.stop(), []);

  const startStream = async () => {
    const resuming = live;
    const mediaStream = camera.stream;
    if (!mediaStream) return;
    setPressed(resuming ? 'resume' : 'start');
    try {
      await startMutation.mutateAsync();
    } catch (error) {
      errorToast('Error', errorMessage(error, 'Could not start the stream'));
      return;
    }
    broadcasterRef.current?.stop();
    const broadcaster = new Broadcaster(roomName, mediaStream, {
      onError: (message) => errorToast('Error', message),
    });
    broadcasterRef.current = broadcaster;
    broadcaster.start();
    setBroadcasting(true);
    if (resuming) toast({ title: 'Stream Resumed', description: 'Viewers see your camera again.' });
    else toast({ title: 'Stream Started', description: 'You are now live! Viewers can join your stream.' });
  };

  const { stop: stopCamera } = camera;
  const { mutateAsync: endStream } = endMutation;
  const finishStream = useCallback(async () => {
    if (finishing.current) return;
    finishing.current = true;
    broadcasterRef.current?.stop();
    broadcasterRef.current = null;
    try {
      await endStream();
    } catch (error) {
      finishing.current = false;
      errorToast('Error', errorMessage(error, 'Could not end the stream'));
      return;
    }
    stopCamera();
    toast({ title: 'Stream Ended' });
    navigate('/dashboard');
  }, [endStream, stopCamera, navigate]);

  // The countdown reaching 0, or the server ending the stream, ends the host's broadcast.
  useEffect(() => {
    if (!broadcasting) return;
    if (state.ended || secondsLeft === 0) void finishStream();
  }, [broadcasting, state.ended, secondsLeft, finishStream]);

  // A viewer on a phone gets the immersive room; whoever runs the room keeps the studio.
  const immersive = useMediaQuery(IMMERSIVE_QUERY);
  if (immersive && !ended && !isHost && !runsShop) {
    return (
      <PhoneRoom
        roomName={roomName}
        stream={stream}
        live={live}
        secondsLeft={secondsLeft}
        state={state}
        connected={status === 'open'}
        canChat={user !== null}
        send={send}
        shop={shop}
        auction={auction}
        giveaway={giveaway}
      />
    );
  }

  let stage: ReactNode;
  if (ended && !broadcasting) stage = <EndedStage roomName={roomName} onReplayVideo={setReplayVideo} />;
  else if (isHost && encoder.stage === 'output')
    stage = (
      <EncoderStage
        roomName={roomName}
        live={live}
        posterUrl={stream?.thumbnailUrl}
        status={encoder.status}
        busy={endMutation.isPending}
        onEnd={() => void finishStream()}
        onUseCamera={() => setCameraChosen(true)}
      />
    );
  else if (isHost)
    stage = (
      <OwnerStage
        camera={camera}
        action={startMutation.isPending ? pressed : cameraAction({ live, broadcasting })}
        busy={startMutation.isPending || endMutation.isPending}
        onStart={() => void startStream()}
        onEnd={() => void finishStream()}
      />
    );
  else
    stage = (
      <>
        <ViewerStage roomName={roomName} live={live} posterUrl={stream?.thumbnailUrl}>
          {/* Over the video's corner (under it on a phone); Buy Now opens a sheet, so the video plays on. */}
          <PinnedProducts
            roomName={roomName}
            shop={shop}
            canBuy
            className="sm:absolute sm:right-3 sm:bottom-3 sm:w-96 sm:max-w-[60%]"
          />
          {/* Under the video, beside the chat: the video stays clear while people bid. */}
          {live ? <AuctionBidderCard room={auction} /> : null}
          {live ? <GiveawayCard room={giveaway} hostHandle={hostHandle} /> : null}
        </ViewerStage>
        {/* The whole lineup, pinned or not, in a sheet. */}
        <RoomShop roomName={roomName} shop={shop} hostHandle={hostHandle} />
      </>
    );

  // Under the stage: the lineup for whoever runs the room, the product chapters of a replay.
  let shopSection: ReactNode = null;
  if (ended && !broadcasting) {
    shopSection = replayVideo ? (
      <>
        <ReplayShop roomName={roomName} video={replayVideo} canBuy={!isHost} />
        <ReplayAuctions roomName={roomName} video={replayVideo} />
      </>
    ) : null;
  } else if (runsShop) {
    shopSection = (
      <LineupPanel
        roomName={roomName}
        shop={shop}
        live={live}
        ownerHandle={hostHandle}
        isOwner={isHost}
        loadFailed={shopLoadFailed}
        auction={auction}
        giveaway={giveaway}
      />
    );
  }

  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6" aria-busy={stream === undefined}>
      {stream ? (
        <RoomHeader
          title={stream.title}
          hostHandle={hostHandle}
          live={live}
          viewerCount={ended ? null : (state.viewerCount ?? 0)}
          secondsLeft={secondsLeft}
        />
      ) : (
        // As tall as the header it stands for (a title line, then the host's line with its Follow
        // button), so the video under it stays where it is when the stream loads.
        <div className="grid gap-1">
          <h1 className="sr-only">Live Stream</h1>
          <Skeleton className="h-9 w-72" />
          <Skeleton className="h-9 w-56" />
        </div>
      )}
      {/* grid-cols-1 (minmax(0, 1fr)), not the implicit `auto` column, which grows to the widest
          unbroken line (a chapter's title) and made a phone's replay page wider than the phone. */}
      <div className="mt-6 grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="grid grid-cols-1 gap-4">
          {stage}
          {isHost && !ended ? <EncoderPanel roomName={roomName} status={encoder.status} /> : null}
          {shopSection}
          {stream?.description ? (
            <p className="whitespace-pre-line text-muted-foreground text-sm">{stream.description}</p>
          ) : null}
        </div>
        {ended && !broadcasting && replayVideo ? (
          <ChatReplayPanel
            className="lg:h-[min(36rem,calc(100vh-12rem))]"
            roomName={roomName}
            video={replayVideo}
            hostHandle={hostHandle}
          />
        ) : (
          <ChatPanel
            className="lg:h-[min(36rem,calc(100vh-12rem))]"
            messages={state.messages}
            error={state.error}
            canChat={user !== null}
            isHost={isHost}
            hostHandle={hostHandle}
            connected={status === 'open'}
            send={send}
          />
        )}
      </div>
    </section>
  );
}
