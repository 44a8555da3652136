import { useQuery } from '@tanstack/react-query';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useAuth } from '../../lib/session/use-auth.ts';
import { AddressesSection } from './addresses-section.tsx';
import { accountOverviewQueryOptions } from './api.ts';
import { CardsSection } from './cards-section.tsx';
import { DeleteAccountSection } from './delete-section.tsx';
import { EmailSection } from './email-section.tsx';
import { NotificationsSection } from './notifications-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { ProfileSection } from './profile-section.tsx';
import { SessionsSection } from './sessions-section.tsx';

/** /settings: the signed-in account's profile, sign-in details, notifications, addresses, cards, devices, data and deletion. */
export function SettingsPage() {
  usePageTitle('Settings');
  const { user } = useAuth();
  const overview = useQuery(accountOverviewQueryOptions);

  let body: React.ReactNode;
  if (!user || overview.isPending) {
    body = (
      <div className="grid gap-6" data-testid="settings-loading">
        <Skeleton className="h-64 w-full" />
        <Skeleton className="h-48 w-full" />
      </div>
    );
  } else if (overview.isError) {
    body = (
      <p role="alert" className="rounded-md border border-red-500/50 p-3 text-red-300 text-sm">
        {errorMessage(overview.error, 'Your settings could not be loaded. Please reload the page.')}
      </p>
    );
  } else {
    const { hasPassword } = overview.data;
    body = (
      <div className="grid gap-6">
        <ProfileSection user={user} />
        <EmailSection user={user} hasPassword={hasPassword} />
        <PasswordSection hasPassword={hasPassword} />
        <NotificationsSection />
        <AddressesSection />
        <CardsSection />
        <SessionsSection />
        <DeleteAccountSection user={user} hasPassword={hasPassword} />
      </div>
    );
  }

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
      <header className="mb-8">
        <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">Settings</h1>
        <p className="mt-2 text-muted-foreground">{user ? `@${user.handle}` : null}</p>
      </header>
      {body}
    </div>
  );
}
