import { CONTACT_LIMITS, type ContactBody, contactBodySchema } from '@streamshop/contract/site.ts';
import { AlertCircle, CheckCircle2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { FieldError } from '../../components/ui/field-error.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { errorMessage, parseApiError } from '../../lib/api/client.ts';
import { fieldErrorProps, fieldErrorsFromIssues } from '../../lib/form-errors.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { useSendContactMessageMutation } from './api.ts';
import { CONTACT_PAGE } from './content.ts';
import { RichText } from './site-document.tsx';

type ContactField = keyof ContactBody;
const LABELS: Record<ContactField, string> = {
  name: 'Name',
  email: 'Email',
  subject: 'Subject',
  message: 'Message',
};
const EMPTY = { name: '', email: '', subject: '', message: '' };

export const CONTACT_RATE_LIMITED_MESSAGE =
  'You have sent several messages in a short time. Please wait an hour before you send another.';

const textareaClasses =
  'flex min-h-40 w-full rounded-md border border-input bg-background px-3 py-2 text-base text-foreground placeholder:text-muted-foreground md:text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-red-400';

function FormRow({ children }: { children: ReactNode }) {
  return <div className="grid gap-2">{children}</div>;
}

/** /contact: a message to the site's operator, sent by email (POST /api/contact). */
export function ContactPage() {
  usePageTitle(CONTACT_PAGE.title);
  const id = useId();
  const ids = (part: string) => `${id}-${part}`;
  const send = useSendContactMessageMutation();
  const fields = useFieldErrors(LABELS);
  const [values, setValues] = useState(EMPTY);
  /** Why the message did not go, when no single field is to blame. */
  const [notice, setNotice] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<{ name: string; email: string } | null>(null);

  const set = (field: ContactField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    fields.clear(field);
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(null);
    const parsed = contactBodySchema.safeParse(values);
    if (!parsed.success) {
      fields.show(fieldErrorsFromIssues(parsed.error.issues, LABELS));
      return;
    }
    fields.clearAll();
    send.mutate(parsed.data, {
      onSuccess: () => {
        setSentTo({ name: parsed.data.name, email: parsed.data.email });
        setValues(EMPTY);
      },
      onError: (error) => {
        if (parseApiError(error).status === 429) setNotice(CONTACT_RATE_LIMITED_MESSAGE);
        else if (!fields.showServer(error))
          setNotice(errorMessage(error, 'Your message could not be sent. Please try again.'));
      },
    });
  }

  const fieldProps = (field: ContactField) => ({
    id: ids(field),
    name: field,
    value: values[field],
    ...fieldErrorProps(ids(`${field}-error`), fields.errors[field]),
  });

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-12 sm:px-6 sm:py-16" data-testid="contact-page">
      <h1 className="font-extrabold text-4xl tracking-tight sm:text-5xl">{CONTACT_PAGE.title}</h1>
      <p className="mt-4 text-lg text-muted-foreground leading-relaxed">{CONTACT_PAGE.summary}</p>

      <Card className="mt-8">
        <CardContent className="pt-6">
          {sentTo ? (
            <div role="status" className="grid justify-items-start gap-3" data-testid="contact-sent">
              <h2 className="flex items-center gap-2 font-semibold text-2xl">
                <CheckCircle2 className="size-6 text-emerald-400" aria-hidden="true" />
                Message sent
              </h2>
              <p className="text-muted-foreground [overflow-wrap:anywhere]">
                Thanks, {sentTo.name}. We will reply to {sentTo.email} as soon as we can.
              </p>
              <Button variant="outline" onClick={() => setSentTo(null)} data-testid="contact-another">
                Send another message
              </Button>
            </div>
          ) : (
            <form
              ref={fields.formRef}
              className="grid gap-5"
              onSubmit={onSubmit}
              noValidate
              aria-label="Contact us"
            >
              <div className="grid gap-5 sm:grid-cols-2">
                <FormRow>
                  <Label htmlFor={ids('name')}>Name</Label>
                  <Input
                    {...fieldProps('name')}
                    autoComplete="name"
                    maxLength={CONTACT_LIMITS.name}
                    onChange={(event) => set('name', event.target.value)}
                    data-testid="contact-name"
                  />
                  <FieldError id={ids('name-error')} message={fields.errors.name} />
                </FormRow>
                <FormRow>
                  <Label htmlFor={ids('email')}>Email</Label>
                  <Input
                    {...fieldProps('email')}
                    type="email"
                    autoComplete="email"
                    placeholder="you@example.com"
                    onChange={(event) => set('email', event.target.value)}
                    data-testid="contact-email"
                  />
                  <FieldError id={ids('email-error')} message={fields.errors.email} />
                </FormRow>
              </div>
              <FormRow>
                <Label htmlFor={ids('subject')}>
                  Subject <span className="font-normal text-muted-foreground">(optional)</span>
                </Label>
                <Input
                  {...fieldProps('subject')}
                  maxLength={CONTACT_LIMITS.subject}
                  onChange={(event) => set('subject', event.target.value)}
                  data-testid="contact-subject"
                />
                <FieldError id={ids('subject-error')} message={fields.errors.subject} />
              </FormRow>
              <FormRow>
                <Label htmlFor={ids('message')}>Message</Label>
                <textarea
                  {...fieldProps('message')}
                  className={textareaClasses}
                  rows={6}
                  maxLength={CONTACT_LIMITS.message}
                  onChange={(event) => set('message', event.target.value)}
                  data-testid="contact-message"
                />
                <FieldError id={ids('message-error')} message={fields.errors.message} />
              </FormRow>
              {notice ? (
                <p className="flex items-start gap-2 text-sm" role="alert" data-testid="contact-notice">
                  <AlertCircle className="mt-0.5 size-4 shrink-0 text-red-400" aria-hidden="true" />
                  {notice}
                </p>
              ) : null}
              <Button
                type="submit"
                className="justify-self-start"
                disabled={send.isPending}
                data-testid="contact-submit"
              >
                {send.isPending ? 'Sending...' : 'Send message'}
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
      <p className="mt-6 text-muted-foreground text-sm">
        <RichText text={CONTACT_PAGE.note} />
      </p>
    </div>
  );
}
