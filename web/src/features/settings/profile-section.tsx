import type { User } from '@streamshop/contract/auth.ts';
import { ImageUp, Loader2, Trash2 } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { errorMessage, extractFieldErrors } from '../../lib/api/client.ts';
import { errorToast } from '../../lib/error-toast.ts';
import { useImageUpload } from '../../lib/use-image-upload.tsx';
import { useUpdateProfileMutation } from './api.ts';
import { profileFormValues, validateProfile } from './settings-form.ts';
import { SettingsField, SettingsSection } from './settings-parts.tsx';
import { useSettingsForm } from './use-settings-form.ts';

function Avatar({ user }: { user: User }) {
  if (user.profileImageUrl) {
    return (
      <img
        src={user.profileImageUrl}
        alt={`${user.firstName} ${user.lastName}`}
        className="size-20 rounded-full border border-border object-cover"
        data-testid="settings-avatar"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="flex size-20 items-center justify-center rounded-full bg-gradient-to-br from-purple-500 to-pink-500 font-bold text-2xl text-white"
      data-testid="settings-avatar-initials"
    >
      {(user.firstName[0] ?? '') + (user.lastName[0] ?? '')}
    </span>
  );
}

/** Names, business name and the picture others see next to the storefront. */
export function ProfileSection({ user }: { user: User }) {
  const form = useSettingsForm(() => profileFormValues(user));
  const { values } = form;
  const update = useUpdateProfileMutation();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.accepts(validateProfile(values))) return;
    update.mutate(values, {
      onSuccess: () => toast({ title: 'Profile saved' }),
      onError: (error) => {
        form.setErrors(extractFieldErrors(error));
        errorToast('Error', errorMessage(error, 'Your profile could not be saved.'));
      },
    });
  }

  function setPicture(profileImageUrl: string | null) {
    update.mutate(
      { profileImageUrl },
      {
        onSuccess: () => toast({ title: profileImageUrl ? 'Picture updated' : 'Picture removed' }),
        onError: (error) => errorToast('Error', errorMessage(error, 'The picture could not be saved.')),
      },
    );
  }

  const upload = useImageUpload(setPicture, 'avatar-file');

  const pictureBusy =
    upload.uploading || (update.isPending && update.variables?.profileImageUrl !== undefined);

  return (
    <SettingsSection
      title="Profile"
      description="How you appear on your storefront, in chat and on receipts."
      testId="settings-profile"
    >
      <div className="flex flex-wrap items-center gap-4">
        <Avatar user={user} />
        <div className="flex flex-wrap gap-2">
          {upload.input}
          <Button
            type="button"
            variant="outline"
            disabled={pictureBusy}
            onClick={upload.choose}
            data-testid="avatar-upload"
          >
            {pictureBusy ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <ImageUp aria-hidden="true" />
            )}
            {user.profileImageUrl ? 'Change picture' : 'Upload picture'}
          </Button>
          {user.profileImageUrl ? (
            <Button
              type="button"
              variant="ghost"
              disabled={pictureBusy}
              onClick={() => setPicture(null)}
              data-testid="avatar-remove"
            >
              <Trash2 aria-hidden="true" />
              Remove
            </Button>
          ) : null}
        </div>
      </div>
      <form className="grid gap-4" onSubmit={onSubmit} noValidate aria-label="Profile">
        <div className="grid gap-4 sm:grid-cols-2">
          <SettingsField
            label="First name"
            {...form.field('firstName')}
            autoComplete="given-name"
            data-testid="profile-first-name"
          />
          <SettingsField
            label="Last name"
            {...form.field('lastName')}
            autoComplete="family-name"
            data-testid="profile-last-name"
          />
        </div>
        <SettingsField
          label="Business name"
          {...form.field('businessName')}
          autoComplete="organization"
          hint="Optional. Shown on your storefront instead of your handle."
          data-testid="profile-business-name"
        />
        <div>
          <Button type="submit" disabled={update.isPending} data-testid="profile-save">
            {update.isPending && update.variables?.profileImageUrl === undefined
              ? 'Saving...'
              : 'Save profile'}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
