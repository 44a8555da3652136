import { PLAN_STREAM_SECONDS } from '@streamshop/contract/constants.ts';
import { createRoomBodySchema } from '@streamshop/contract/live.ts';
import { Crown, Lightbulb, Loader2, Radio } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Badge } from '../../components/ui/badge.tsx';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { formatPlanDuration } from '../../lib/countdown.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { useCreateRoomMutation } from './api.ts';
import { ObsSetupCard } from './obs-setup-card.tsx';

const STREAMING_TIPS = [
  'Use good lighting: face a window or a lamp, not away from it.',
  'Check your microphone and keep background noise down.',
  'Have your products within reach and show them up close.',
  'Greet viewers by name and answer chat questions as they come.',
  'Tell viewers how long they have: your plan sets the stream length.',
];

type FieldErrors = Partial<Record<'title' | 'description' | 'rtmpUrl', string>>;

/** /golive: set up a stream; the route renders it for signed-in users only. */
export function GoLivePage() {
  usePageTitle('Go Live');
  const { user } = useAuth();
  const navigate = useNavigate();
  const createRoom = useCreateRoomMutation();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [rtmpUrl, setRtmpUrl] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const ids = { title: useId(), description: useId(), rtmpUrl: useId() };

  const isPro = user?.plan === 'pro';
  const planSeconds = PLAN_STREAM_SECONDS[isPro ? 'pro' : 'free'];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { title, description, ...(isPro ? { rtmpUrl } : {}) };
    const parsed = createRoomBodySchema.safeParse(body);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FieldErrors;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    createRoom.mutate(body, {
      onSuccess: ({ roomName }) => {
        toast({
          title: 'Live Stream Created!',
          description: "Your live stream is ready. You'll be redirected to the streaming room.",
        });
        navigate(`/room/${roomName}`);
      },
      onError: (error) => errorToast('Failed to Create Stream', errorMessage(error, 'Please try again.')),
    });
  };

  const fieldError = (field: keyof FieldErrors) =>
    errors[field] ? (
      <p
        id={`${ids[field]}-error`}
        className="text-destructive text-sm"
        data-testid={`golive-${field}-error`}
      >
        {errors[field]}
      </p>
    ) : null;

  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="flex items-center gap-3 font-bold text-3xl tracking-tight sm:text-4xl">
        <Radio className="size-8 text-live" aria-hidden="true" />
        Go Live
      </h1>
      <p className="mt-2 text-lg text-muted-foreground">Set up your live shopping stream.</p>

      <div className="mt-8 grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card>
          <CardHeader>
            <CardTitle className="text-xl">Stream Setup</CardTitle>
            <CardDescription>Tell viewers what your stream is about.</CardDescription>
          </CardHeader>
          <CardContent>
            <form className="grid gap-5" onSubmit={submit} noValidate data-testid="golive-form">
              <div className="grid gap-2">
                <Label htmlFor={ids.title}>Stream title</Label>
                <Input
                  id={ids.title}
                  value={title}
                  onChange={(event) => {
                    setTitle(event.target.value);
                    setErrors(({ title: _, ...rest }) => rest);
                  }}
                  placeholder="Vintage vinyl drop: rare pressings tonight"
                  maxLength={200}
                  required
                  aria-invalid={errors.title ? true : undefined}
                  aria-describedby={errors.title ? `${ids.title}-error` : undefined}
                  data-testid="golive-title"
                />
                {fieldError('title')}
              </div>
              <div className="grid gap-2">
                <Label htmlFor={ids.description}>Description (optional)</Label>
                <textarea
                  id={ids.description}
                  value={description}
                  onChange={(event) => {
                    setDescription(event.target.value);
                    setErrors(({ description: _, ...rest }) => rest);
                  }}
                  placeholder="What will you show? Any special deals?"
                  maxLength={2000}
                  rows={4}
                  aria-invalid={errors.description ? true : undefined}
                  aria-describedby={errors.description ? `${ids.description}-error` : undefined}
                  className="w-full rounded-md border border-input bg-background px-3 py-2 text-base text-foreground placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background md:text-sm"
                  data-testid="golive-description"
                />
                {fieldError('description')}
              </div>
              {isPro ? (
                <div className="grid gap-2">
                  <Label htmlFor={ids.rtmpUrl}>RTMP URL (optional)</Label>
                  <Input
                    id={ids.rtmpUrl}
                    value={rtmpUrl}
                    onChange={(event) => {
                      setRtmpUrl(event.target.value);
                      setErrors(({ rtmpUrl: _, ...rest }) => rest);
                    }}
                    placeholder="rtmp://live.example.com/app/stream-key"
                    inputMode="url"
                    aria-invalid={errors.rtmpUrl ? true : undefined}
                    aria-describedby={`${ids.rtmpUrl}-hint${errors.rtmpUrl ? ` ${ids.rtmpUrl}-error` : ''}`}
                    data-testid="golive-rtmp-url"
                  />
                  <p id={`${ids.rtmpUrl}-hint`} className="text-muted-foreground text-xs">
                    Also stream to another platform (rtmp:// or rtmps://).
                  </p>
                  {fieldError('rtmpUrl')}
                </div>
              ) : null}
              <Button type="submit" size="lg" disabled={createRoom.isPending} data-testid="golive-submit">
                {createRoom.isPending ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <Radio aria-hidden="true" />
                )}
                {createRoom.isPending ? 'Creating Stream...' : 'Create Live Stream'}
              </Button>
            </form>
          </CardContent>
        </Card>

        <div className="grid gap-6">
          <Card data-testid="plan-card">
            <CardHeader>
              <div className="flex items-center justify-between">
                <CardTitle className="text-lg">Your Plan</CardTitle>
                <Badge variant={isPro ? 'default' : 'secondary'} className="gap-1" data-testid="plan-name">
                  {isPro ? <Crown className="size-3" aria-hidden="true" /> : null}
                  {isPro ? 'PRO' : 'FREE'}
                </Badge>
              </div>
            </CardHeader>
            <CardContent className="grid gap-3">
              <div>
                <p className="font-bold font-mono text-3xl tabular-nums" data-testid="plan-duration">
                  {formatPlanDuration(planSeconds)}
                </p>
                <p className="text-muted-foreground text-sm">Maximum stream length (minutes:seconds)</p>
              </div>
              {isPro ? (
                <p className="text-muted-foreground text-sm">
                  HD quality, unlimited viewers and RTMP restreaming.
                </p>
              ) : (
                <Link to="/subscribe" className={buttonClasses({ variant: 'outline', className: 'w-full' })}>
                  <Crown aria-hidden="true" />
                  Upgrade to Pro for 15 minutes
                </Link>
              )}
            </CardContent>
          </Card>

          <ObsSetupCard plan={isPro ? 'pro' : 'free'} />

          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2 text-lg">
                <Lightbulb className="size-5 text-primary" aria-hidden="true" />
                Streaming Tips
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="grid list-disc gap-2 pl-5 text-muted-foreground text-sm">
                {STREAMING_TIPS.map((tip) => (
                  <li key={tip}>{tip}</li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </div>
      </div>
    </section>
  );
}
