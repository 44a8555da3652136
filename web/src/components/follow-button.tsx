import { withReturnPath } from '@streamshop/contract/return-path.ts';
import { useQuery } from '@tanstack/react-query';
import { Check, UserPlus } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorMessage, parseApiError } from '../lib/api/client.ts';
import { followStateQueryOptions, useFollowMutation } from '../lib/api/follows.ts';
import { cn } from '../lib/cn.ts';
import { errorToast } from '../lib/error-toast.ts';
import { useAuth } from '../lib/session/use-auth.ts';
import { buttonClasses } from './ui/button.tsx';
import { Skeleton } from './ui/skeleton.tsx';

/** '1 follower', '1,204 followers'. */
export function followerCount(followers: number): string {
  return `${followers.toLocaleString('en-US')} ${followers === 1 ? 'follower' : 'followers'}`;
}

/**
 * Follow / Following for a seller, with their follower count (storefront, room, product page).
 * A visitor signed out is sent to sign in and comes back here; the seller sees none on their own.
 */
export function FollowButton({ handle, className }: { handle: string; className?: string }) {
  const { user } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const self = user !== null && user.handle.toLowerCase() === handle.toLowerCase();
  const state = useQuery({ ...followStateQueryOptions(handle), enabled: handle !== '' && !self });
  const follow = useFollowMutation(handle);
  const signIn = withReturnPath('/signin', `${location.pathname}${location.search}${location.hash}`);

  // Nothing to follow yet (the room still loading), an unknown seller, or oneself.
  if (!handle || self || state.isError) return null;

  const following = state.data?.following ?? false;
  const count = state.data ? (
    <span className="text-muted-foreground text-sm tabular-nums" data-testid="follower-count">
      {followerCount(state.data.followers)}
    </span>
  ) : (
    <Skeleton className="h-4 w-20" />
  );
  const classes = buttonClasses({ size: 'sm', variant: following ? 'outline' : 'default' });

  const toggle = () => {
    // One change at a time: a second click before the answer would race the first.
    if (!state.data || follow.isPending) return;
    follow.mutate(!following, {
      onError: (error) => {
        if (parseApiError(error).status === 401) {
          void navigate(signIn);
          return;
        }
        errorToast(
          following ? 'Could not unfollow' : 'Could not follow',
          errorMessage(error, 'Please try again.'),
        );
      },
    });
  };

  return (
    <div className={cn('inline-flex flex-wrap items-center gap-x-3 gap-y-1', className)} data-testid="follow">
      {user && !state.data ? (
        // Follow or Following is not known yet: neither, rather than the wrong one for a moment.
        <Skeleton className="h-9 w-28" />
      ) : user ? (
        <button
          type="button"
          className={classes}
          aria-pressed={following}
          aria-disabled={follow.isPending ? true : undefined}
          onClick={toggle}
          data-testid="follow-button"
        >
          {following ? <Check aria-hidden="true" /> : <UserPlus aria-hidden="true" />}
          {/* A toggle keeps one name in both states and aria-pressed says which (WAI-ARIA APG):
              "Follow @handle", pressed or not. Only the visible "ing" is left out of it. */}
          <span>
            Follow{following ? <span aria-hidden="true">ing</span> : null}
            <span className="sr-only"> @{handle}</span>
          </span>
        </button>
      ) : (
        <Link to={signIn} className={classes} data-testid="follow-button">
          <UserPlus aria-hidden="true" />
          <span>
            Follow<span className="sr-only"> @{handle}</span>
          </span>
        </Link>
      )}
      {count}
    </div>
  );
}
