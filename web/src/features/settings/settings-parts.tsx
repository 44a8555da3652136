import { type ComponentProps, type ReactNode, useId } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { cn } from '../../lib/cn.ts';

/** One section of the settings page: a card with a title, what it is for, and its form. */
export function SettingsSection({
  title,
  description,
  children,
  testId,
  danger = false,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
  testId: string;
  danger?: boolean;
}) {
  return (
    <Card className={cn(danger && 'border-red-500/40')} data-testid={testId}>
      <CardHeader>
        <CardTitle className={cn('text-xl', danger && 'text-red-400')}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
    </Card>
  );
}

/** A labelled input with its error (announced and tied to the input) or a hint under it. */
export function SettingsField({
  label,
  error,
  hint,
  ...inputProps
}: ComponentProps<typeof Input> & { label: string; error?: string | undefined; hint?: ReactNode }) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ?? hint;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={note ? noteId : undefined}
        className={cn(error && 'border-red-500')}
        {...inputProps}
      />
      {note ? (
        <p
          id={noteId}
          className={cn('text-xs', error ? 'text-red-400' : 'text-muted-foreground')}
          role={error ? 'alert' : undefined}
        >
          {note}
        </p>
      ) : null}
    </div>
  );
}
