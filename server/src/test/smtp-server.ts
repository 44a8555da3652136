import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './ports.ts';

/** A message as the test SMTP server received and parsed it. */
export interface ReceivedMail {
  from: string;
  to: string;
  /** The Reply-To header's text, '' when there is none. */
  replyTo: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Every header line as sent, by lower-case name (List-Unsubscribe, List-Unsubscribe-Post…). */
  headerLines: Record<string, string>;
}

export interface TestSmtpServer {
  /** smtp://user:password@127.0.0.1:port, for SMTP_URL. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Waits for a message that `match` accepts (default: to `to`), and answers it. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** From now on each message is accepted only after `ms` (a slow provider); 0 again for at once. */
  delayAcceptance(ms: number): void;
  /** Stops listening (SMTP down); `start` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export const SMTP_USER = 'mailer';
export const SMTP_PASSWORD = 'smtp-test-password';

/** The link in a message's text part whose path starts with `pathname` (e.g. /verify-email). */
export function linkIn(mail: ReceivedMail, pathname: string): URL {
  for (const match of mail.text.matchAll(/https?:\/\/\S+/g)) {
    const url = new URL(match[0]);
    if (url.pathname === pathname) return url;
  }
  throw new Error(`no ${pathname} link in "${mail.subject}":\n${mail.text}`);
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps what it receives, parsed
 * with mailparser. It asks for the test credentials, as a provider would.
 */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let server: SMTPServer | undefined;
  let acceptDelayMs = 0;

  const listen = async () => {
    server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: false,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD)
          callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then(async (parsed) => {
            if (acceptDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, acceptDelayMs));
            const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
            received.push({
              from: parsed.from?.text ?? '',
              to: to?.value[0]?.address ?? '',
              replyTo: parsed.replyTo?.text ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              messageId: parsed.messageId ?? '',
              headerLines: Object.fromEntries(
                parsed.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(':') + 1).trim()]),
              ),
            });
            for (const wake of waiters) wake();
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => resolve());
    });
  };
  await listen();

  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    port,
    received,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          const seen = received.map((m) => `${m.to}: ${m.subject}`).join('; ') || 'none';
          reject(new Error(`no matching mail within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    delayAcceptance(ms) {
      acceptDelayMs = ms;
    },
    async stop() {
      const stopping = server;
      server = undefined;
      if (stopping) await new Promise<void>((resolve) => stopping.close(() => resolve()));
    },
    start: listen,
  };
}
