import type { NotificationKind } from '@streamshop/contract/notifications.ts';
import { CircleCheck, Loader2, MailX, TriangleAlert } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { errorMessage, parseApiError } from '../../lib/api/client.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useUnsubscribeMutation } from './api.ts';

/** The emails each kind of unsubscribe link stops, in words. */
export const UNSUBSCRIBED_EMAILS: Record<NotificationKind, string> = {
  live: 'go-live emails (when a seller you follow goes live)',
  reminder: 'show reminder emails',
};

const SETTINGS_LINK = '/settings#notifications';

/**
 * The kind a token names (`<account>.<kind>.<signature>`), to say up front which emails the
 * button stops; only a hint: the server checks the token and answers the kind it turned off.
 */
export function tokenKind(token: string): NotificationKind | undefined {
  const kind = token.split('.')[1];
  return kind === 'live' || kind === 'reminder' ? kind : undefined;
}

function failure(error: unknown): string {
  return parseApiError(error).status === 400
    ? 'This unsubscribe link is not valid or has expired. You can turn these emails off in your notification settings instead.'
    : errorMessage(error, 'You could not be unsubscribed just now. Please try again.');
}

/**
 * /unsubscribe?token=…: the page a notification email's "Unsubscribe" link opens. Opening it
 * changes nothing (mail scanners follow links); the button does, without a session.
 */
export function UnsubscribePage() {
  usePageTitle('Unsubscribe');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const kind = tokenKind(token);
  const unsubscribe = useUnsubscribeMutation();

  let body: React.ReactNode;
  if (!token) {
    body = (
      <p role="alert" className="flex items-start gap-2 text-red-300 text-sm" data-testid="unsubscribe-error">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        This unsubscribe link is incomplete. Open the link from the email again, or turn emails off in your
        notification settings.
      </p>
    );
  } else if (unsubscribe.isSuccess) {
    body = (
      <div className="grid gap-3" role="status" data-testid="unsubscribe-done">
        <p className="flex items-center gap-2 font-semibold text-lg">
          <CircleCheck className="size-5 text-emerald-400" aria-hidden="true" />
          You're unsubscribed
        </p>
        <p className="text-muted-foreground">
          We won't send you {UNSUBSCRIBED_EMAILS[unsubscribe.data.kind]} any more. Notifications in the app
          are not changed.
        </p>
      </div>
    );
  } else {
    body = (
      <div className="grid gap-4">
        <p className="text-muted-foreground" data-testid="unsubscribe-explainer">
          {kind
            ? `This stops ${UNSUBSCRIBED_EMAILS[kind]} to your address.`
            : 'This stops the kind of email this link came in: go-live emails or show reminder emails.'}{' '}
          Other emails, such as receipts and account messages, still arrive.
        </p>
        {unsubscribe.isError ? (
          <p
            role="alert"
            className="flex items-start gap-2 text-red-300 text-sm"
            data-testid="unsubscribe-error"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {failure(unsubscribe.error)}
          </p>
        ) : null}
        <div>
          <Button
            onClick={() => unsubscribe.mutate(token)}
            disabled={unsubscribe.isPending}
            data-testid="unsubscribe-button"
          >
            {unsubscribe.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            Unsubscribe
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="mx-auto w-full max-w-lg px-4 py-12 sm:px-6">
      <Card className="grid gap-5 p-6 sm:p-8" data-testid="unsubscribe">
        <h1 className="flex items-center gap-3 font-bold text-2xl tracking-tight">
          <MailX className="size-6 text-primary" aria-hidden="true" />
          Unsubscribe from emails
        </h1>
        {body}
        <p className="border-border border-t pt-4 text-muted-foreground text-sm">
          Choose which emails and in-app notifications you get in your{' '}
          <Link to={SETTINGS_LINK} className={buttonClasses({ variant: 'link', className: 'h-auto p-0' })}>
            notification settings
          </Link>
          .
        </p>
      </Card>
    </div>
  );
}
