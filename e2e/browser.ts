import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type ConsoleMessage,
  chromium,
  type Page,
} from 'playwright-core';

/** Debian's Chromium; playwright-core never downloads a browser of its own. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    headless: true,
  });
}

export interface PageProblem {
  kind: 'pageerror' | 'console';
  text: string;
  /** The script or resource the message is about, when Chromium names one. */
  url: string;
}

/**
 * Chromium logs every non-2xx fetch as a console error ("Failed to load resource: the server
 * responded with a status of 401 (Unauthorized)"). Some of those are the product working as
 * specified (the auth probe answers 401 when signed out), so a test names the ones it expects.
 */
export interface ExpectedFailure {
  status: number;
  /** Matched against the resource URL's path. */
  path: string | RegExp;
}

/** The signed-out auth check: GET /api/auth/user answers 401. */
export const SIGNED_OUT_PROBE: ExpectedFailure = { status: 401, path: '/api/auth/user' };

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Every uncaught page error and console error so far. */
  problems: PageProblem[];
  /** Throws when a page error or a console error happened, except the expected failures. */
  expectNoErrors(expected?: ExpectedFailure[]): void;
  close(): Promise<void>;
}

const FAILED_RESOURCE = /^Failed to load resource: the server responded with a status of (\d{3})/;

function isExpected(problem: PageProblem, expected: ExpectedFailure[]): boolean {
  if (problem.kind !== 'console') return false;
  const match = FAILED_RESOURCE.exec(problem.text);
  if (!match) return false;
  const status = Number(match[1]);
  let path: string;
  try {
    path = new URL(problem.url).pathname;
  } catch {
    return false;
  }
  return expected.some(
    (failure) =>
      failure.status === status &&
      (typeof failure.path === 'string' ? failure.path === path : failure.path.test(path)),
  );
}

function describe(message: ConsoleMessage): PageProblem {
  return { kind: 'console', text: message.text(), url: message.location().url };
}

/** A fresh context (no cookies) and page that records page errors and console errors. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    ...options,
  });
  const page = await context.newPage();
  const problems: PageProblem[] = [];
  page.on('pageerror', (error) =>
    problems.push({ kind: 'pageerror', text: error.stack ?? error.message, url: page.url() }),
  );
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(describe(message));
  });
  return {
    page,
    context,
    problems,
    expectNoErrors(expected = []) {
      const unexpected = problems.filter((problem) => !isExpected(problem, expected));
      if (unexpected.length > 0) {
        const lines = unexpected.map((p) => `- [${p.kind}] ${p.text}${p.url ? ` (${p.url})` : ''}`);
        throw new Error(`The page reported errors:\n${lines.join('\n')}`);
      }
    },
    close: () => context.close(),
  };
}
