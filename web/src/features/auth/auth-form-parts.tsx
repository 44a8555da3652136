import type { OidcProvider } from '@streamshop/contract/auth.ts';
import { useQuery } from '@tanstack/react-query';
import { Eye, EyeOff } from 'lucide-react';
import { type ComponentProps, type ReactNode, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FieldError } from '../../components/ui/field-error.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { externalSignInUrl } from '../../lib/api/auth.ts';
import { externalProvidersQueryOptions } from '../../lib/api/external-providers.ts';
import { fieldErrorProps } from '../../lib/form-errors.ts';

export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-10 sm:py-16">
      <Card className="w-full max-w-md">
        <CardHeader className="text-center">
          <CardTitle className="text-2xl">{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">{children}</CardContent>
      </Card>
    </div>
  );
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path
        fill="#4285F4"
        d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.76h3.56c2.08-1.92 3.28-4.74 3.28-8.09z"
      />
      <path
        fill="#34A853"
        d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.56-2.76c-.98.66-2.23 1.06-3.72 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23z"
      />
      <path
        fill="#FBBC05"
        d="M5.84 14.11A6.6 6.6 0 0 1 5.5 12c0-.73.13-1.44.34-2.11V7.05H2.18A11 11 0 0 0 1 12c0 1.78.43 3.46 1.18 4.95l3.66-2.84z"
      />
      <path
        fill="#EA4335"
        d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15C17.45 2.09 14.97 1 12 1A11 11 0 0 0 2.18 7.05l3.66 2.84C6.71 7.31 9.14 5.38 12 5.38z"
      />
    </svg>
  );
}

function ReplitMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path fill="#F26207" d="M4 2.5A1.5 1.5 0 0 1 5.5 1h6A1.5 1.5 0 0 1 13 2.5V8H5.5A1.5 1.5 0 0 1 4 6.5z" />
      <path fill="#F26207" d="M13 8h7.5A1.5 1.5 0 0 1 22 9.5v5a1.5 1.5 0 0 1-1.5 1.5H13z" />
      <path
        fill="#F26207"
        d="M4 17.5A1.5 1.5 0 0 1 5.5 16H13v5.5a1.5 1.5 0 0 1-1.5 1.5h-6A1.5 1.5 0 0 1 4 21.5z"
      />
    </svg>
  );
}

const marks: Record<OidcProvider, () => ReactNode> = { google: GoogleMark, replit: ReplitMark };

/**
 * External sign-in, for the providers this server is configured for: full page navigations, the
 * server runs the OpenID Connect redirect. Nothing at all (no divider either) while the list
 * loads, when it fails to, or when it is empty: the handle form below works either way, and a
 * default install, which has none, never moves. `next` (already checked) is where the server
 * sends the user once signed in.
 */
export function ExternalSignIn({ next }: { next?: string }) {
  const { data } = useQuery(externalProvidersQueryOptions);
  const providers = data?.providers ?? [];
  if (providers.length === 0) return null;
  return (
    <>
      <div className="grid gap-3" data-testid="external-sign-in">
        {providers.map(({ id, label }) => {
          const Mark = marks[id];
          return (
            <Button
              key={id}
              variant="outline"
              className="w-full"
              data-testid={`signin-${id}`}
              onClick={() => window.location.assign(externalSignInUrl(id, next))}
            >
              <Mark />
              Continue with {label}
            </Button>
          );
        })}
      </div>
      <OrDivider />
    </>
  );
}

function OrDivider() {
  return (
    <div className="flex items-center gap-3 text-muted-foreground text-xs uppercase">
      <span className="h-px flex-1 bg-border" />
      or continue with your handle
      <span className="h-px flex-1 bg-border" />
    </div>
  );
}

/** A labelled input; `error` (in words) shows under it and is tied to it (aria-invalid, aria-describedby). */
export function Field({
  label,
  hint,
  error,
  ...inputProps
}: ComponentProps<typeof Input> & { label: string; hint?: ReactNode; error?: string | undefined }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} {...fieldErrorProps(`${id}-error`, error, hint ? hintId : undefined)} {...inputProps} />
      <FieldError id={`${id}-error`} message={error} />
      {hint ? (
        <p id={hintId} className="text-muted-foreground text-xs">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A password field with a show/hide toggle. */
export function PasswordField({
  label,
  toggleTestId,
  error,
  ...inputProps
}: Omit<ComponentProps<typeof Input>, 'type'> & {
  label: string;
  toggleTestId?: string;
  error?: string | undefined;
}) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Input
          id={id}
          type={visible ? 'text' : 'password'}
          className="pr-11"
          {...fieldErrorProps(`${id}-error`, error)}
          {...inputProps}
        />
        <button
          type="button"
          className="absolute inset-y-0 right-0 flex w-10 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          data-testid={toggleTestId}
          onClick={() => setVisible((current) => !current)}
        >
          {visible ? (
            <EyeOff className="size-4" aria-hidden="true" />
          ) : (
            <Eye className="size-4" aria-hidden="true" />
          )}
        </button>
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
