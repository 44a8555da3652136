import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestSmtpServer, type TestSmtpServer } from '../server/src/test/support.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { SIGNED_OUT_PROBE } from './browser.ts';
import { useE2e } from './e2e-setup.ts';

/**
 * No dead links: the footer's Help Center, Contact Us, Privacy Policy and Terms of Service are real
 * pages; the contact form's message reaches the operator's mailbox (a real SMTP server started
 * here); and with no DROP_MODE_URL (or any other link setting) no external link is drawn.
 */

const OPERATOR = 'owner@shop.test';
const SHOTS = '/tmp/shots';
const WIDTHS = [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;
const PAGES = [
  ['Help Center', '/help', 'Help Center'],
  ['Contact Us', '/contact', 'Contact Us'],
  ['Privacy Policy', '/privacy', 'Privacy Policy'],
  ['Terms of Service', '/terms', 'Terms of Service'],
] as const;

let smtp: TestSmtpServer | undefined;
const e2e = useE2e({
  env: async () => {
    smtp = await startTestSmtpServer();
    return { SMTP_URL: smtp.url, MAIL_FROM: 'StreamShop <hello@shop.test>', CONTACT_EMAIL: OPERATOR };
  },
  page: { bypassCSP: true },
});
const { newPage } = e2e;
afterAll(async () => {
  await smtp?.stop();
});
mkdirSync(SHOTS, { recursive: true });

const mailbox = () => {
  if (!smtp) throw new Error('the test SMTP server has not started');
  return smtp;
};

async function expectNoAxeProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

/** Opens `path` and answers the server's link settings once the page has them. */
async function openWithLinks(page: Page, path: string) {
  const links = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/site/links');
  await page.goto(path);
  return (await links).json();
}

describe('the footer pages', { timeout: 180_000 }, () => {
  it.each(WIDTHS)('opens Help, Contact, Privacy and Terms from the footer (%s)', async (name, viewport) => {
    const watched = await newPage({ viewport });
    const { page } = watched;
    for (const [label, path, headline] of PAGES) {
      await page.goto('/about');
      await page.getByRole('heading', { level: 1, name: 'About StreamShop' }).waitFor();
      await page.getByTestId('footer').getByRole('link', { name: label }).click();
      await page.waitForURL((url) => url.pathname === path);
      await page.getByRole('heading', { level: 1, name: headline }).waitFor();
      expect(await page.title()).toBe(`${headline} · StreamShop`);
      await expectNoAxeProblems(page);
      await page.screenshot({ path: `${SHOTS}/footer-${path.slice(1)}-${name}.png`, fullPage: true });
    }
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });

  it('serves each page to a crawler with its own title and its text, without JavaScript', async () => {
    const watched = await newPage();
    for (const [, path, headline] of PAGES) {
      const html = await (await watched.page.request.get(path)).text();
      expect(html).toContain(`<title>${headline} · StreamShop</title>`);
      expect(html).toContain(`<link rel="canonical" href="${e2e.server.url}${path}" />`);
      expect(html).toMatch(new RegExp(`<h1[^>]*>${headline}</h1>`));
    }
  });

  it('links the sign-up notice to the terms and the privacy policy, in a new tab', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/signup');
    const terms = page.getByTestId('signup-terms');
    const opened = page.context().waitForEvent('page');
    await terms.getByRole('link', { name: 'Terms of Service' }).click();
    const tab = await opened;
    await tab.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    expect(new URL(tab.url()).pathname).toBe('/terms');
    expect(await terms.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    // The form stayed where it was.
    expect(new URL(page.url()).pathname).toBe('/signup');
  });
});

describe('the contact form', { timeout: 120_000 }, () => {
  it.each(WIDTHS)(
    'sends a message the operator receives, with Reply-To the sender (%s)',
    async (name, viewport) => {
      const watched = await newPage({ viewport });
      const { page } = watched;
      const email = `writer_${name}_${Date.now().toString(36)}@example.com`;
      await page.goto('/contact');
      await page.getByRole('heading', { level: 1, name: 'Contact Us' }).waitFor();

      // Nothing filled in: each field says what it needs, next to it.
      await page.getByTestId('contact-submit').click();
      const errors = page.getByTestId('field-error');
      await errors.first().waitFor();
      expect(await errors.allTextContents()).toEqual([
        'Name is required',
        'Email is required',
        'Message is required',
      ]);
      expect(await page.getByTestId('contact-name').getAttribute('aria-invalid')).toBe('true');
      await expectNoAxeProblems(page);
      await page.screenshot({ path: `${SHOTS}/contact-errors-${name}.png`, fullPage: true });

      await page.getByTestId('contact-name').fill('Nia Buyer');
      await page.getByTestId('contact-email').fill(email);
      await page.getByTestId('contact-subject').fill(`Question from the ${name}`);
      await page.getByTestId('contact-message').fill('Hello!\nDo you ship to Canada?');
      expect(await errors.count()).toBe(0);
      await page.getByTestId('contact-submit').click();
      const sent = page.getByTestId('contact-sent');
      await sent.waitFor();
      expect(await sent.textContent()).toContain('Message sent');
      await expectNoAxeProblems(page);
      await page.screenshot({ path: `${SHOTS}/contact-sent-${name}.png`, fullPage: true });

      const mail = await mailbox().waitFor((m) => m.to === OPERATOR && m.replyTo === email, 20_000);
      expect(mail.subject).toBe(`Contact form: Question from the ${name}`);
      expect(mail.text).toContain(`Nia Buyer <${email}> wrote through the contact page`);
      expect(mail.text).toContain('Do you ship to Canada?');
      watched.expectNoErrors([SIGNED_OUT_PROBE]);
    },
  );
});

describe('external links without settings', { timeout: 60_000 }, () => {
  it('draws no Drop Mode link, product logos or other external link when none is configured', async () => {
    const watched = await newPage({ viewport: { width: 1366, height: 900 } });
    const { page } = watched;
    expect(await openWithLinks(page, '/blog')).toEqual({
      dropMode: null,
      streamDisc: null,
      streamshopLive: null,
      newsletterForm: null,
      pressKit: null,
    });
    await page.getByRole('heading', { level: 1, name: 'Blog' }).waitFor();
    expect(await page.getByTestId('nav-drop-mode').count()).toBe(0);
    expect(await page.getByTestId('blog-external-link').count()).toBe(0);
    await page.getByTestId('drawer-toggle').click();
    await page.getByTestId('drawer').waitFor();
    expect(await page.getByTestId('drawer').getByText('Our products').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/no-external-links-drawer.png` });

    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Shop live. Sell live.' }).waitFor();
    await page.getByTestId('product-site').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/no-external-links-landing-products.png` });
    expect(await page.getByTestId('product-site-link').count()).toBe(0);
    expect(await page.getByTestId('newsletter-external').count()).toBe(0);
    expect(await page.locator('a[target="_blank"]').count()).toBe(0);
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });
});
