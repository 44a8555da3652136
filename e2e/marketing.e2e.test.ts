import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type ExpectedFailure, SIGNED_OUT_PROBE } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';

/** The operator's other sites, set (they are unset by default and then not drawn: footer-pages). */
const SITE_LINKS = {
  DROP_MODE_URL: 'https://dropmode.test/',
  STREAM_DISC_URL: 'https://streamdisc.test/',
  STREAMSHOP_LIVE_URL: 'https://live.streamshop.test/',
  NEWSLETTER_FORM_URL: 'https://newsletter.streamdisc.test/subscribe',
  PRESS_KIT_URL: 'https://streamdisc.test/press/founders-batch',
};
const e2e = useE2e({ env: SITE_LINKS });
const { newPage } = e2e;

let emailCount = 0;
const newEmail = () => {
  emailCount += 1;
  return `fan_${Date.now().toString(36)}_${emailCount}@example.com`;
};

/** The signed-out probe fails with 401 on purpose; anything else is a bug. */
const signedOut: ExpectedFailure[] = [SIGNED_OUT_PROBE];

describe('marketing pages', { timeout: 60_000 }, () => {
  it.each([
    ['/', 'Shop live. Sell live.'],
    ['/stream-disc', 'The Future Is Here'],
    ['/stream-disc/music', 'Stream Disc: A Modern Alternative to CDs & Vinyl'],
    ['/stream-disc/film', 'Stream Disc: A Modern Alternative to DVDs & Blu-ray'],
    ['/social', 'Social Commerce'],
    ['/mission', 'Our Mission'],
    ['/social-impact', 'Social Impact'],
    ['/about', 'About StreamShop'],
    ['/team', 'Our Team'],
    ['/blog', 'Blog'],
  ])('%s renders its headline without page errors or CSP violations', async (path, headline) => {
    const watched = await newPage();
    await watched.page.goto(path);
    await watched.page.getByRole('heading', { level: 1, name: headline }).waitFor();
    // Let the timers (reactions, chat, explainer) run a few rounds.
    await watched.page.waitForTimeout(2500);
    watched.expectNoErrors(signedOut);
  });

  it('opens external links in a new tab without handing over the opener', async () => {
    const watched = await newPage();
    await watched.page.goto('/');
    await watched.page.getByRole('heading', { level: 1, name: 'Shop live. Sell live.' }).waitFor();
    // The configured links appear once the page has the settings.
    await watched.page.getByTestId('newsletter-external').waitFor();
    const links = watched.page.locator('main a[target="_blank"]');
    expect(await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))).toEqual([
      SITE_LINKS.NEWSLETTER_FORM_URL,
      SITE_LINKS.STREAM_DISC_URL,
      SITE_LINKS.DROP_MODE_URL,
      SITE_LINKS.STREAMSHOP_LIVE_URL,
    ]);
    for (const rel of await links.evaluateAll((all) => all.map((a) => a.getAttribute('rel')))) {
      expect(rel).toBe('noopener noreferrer');
    }
    expect(await watched.page.getByTestId('nav-drop-mode').getAttribute('href')).toBe(
      SITE_LINKS.DROP_MODE_URL,
    );
  });

  it('cycles the blog logo through its frames', async () => {
    const watched = await newPage();
    await watched.page.goto('/blog');
    const logo = watched.page.getByTestId('animated-logo');
    const first = await logo.getAttribute('data-frame');
    await watched.page.waitForFunction(
      (start) =>
        document.querySelector('[data-testid="animated-logo"]')?.getAttribute('data-frame') !== start,
      first,
    );
    watched.expectNoErrors(signedOut);
  });

  it('has schema.org Product JSON-LD at price 5.00 on the music page', async () => {
    const watched = await newPage();
    await watched.page.goto('/stream-disc/music');
    const json = await watched.page.locator('script[type="application/ld+json"]').textContent();
    const product = JSON.parse(json ?? '{}');
    expect(product).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      offers: { price: '5.00', priceCurrency: 'USD', availability: 'https://schema.org/PreOrder' },
    });
    watched.expectNoErrors(signedOut);
  });

  it('serves each marketing route its own head and changes it on client-side navigation', async () => {
    const watched = await newPage();
    const { page } = watched;
    const head = () =>
      page.evaluate(() => ({
        title: document.title,
        canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href'),
        ogUrl: document.querySelector('meta[property="og:url"]')?.getAttribute('content'),
        ogImage: document.querySelector('meta[property="og:image"]')?.getAttribute('content'),
      }));

    // Without JavaScript (what a crawler fetches) the title is already the route's own.
    const raw = await (await page.request.get('/stream-disc/music')).text();
    expect(raw).toContain('<title>Stream Disc Music Edition: A Modern Alternative to CDs &amp; Vinyl');
    expect(raw).toContain(`<meta property="og:url" content="${e2e.server.url}/stream-disc/music" />`);

    await page.goto('/stream-disc');
    await page.getByRole('heading', { level: 1, name: 'The Future Is Here' }).waitFor();
    expect(await head()).toEqual({
      title: 'Stream Disc: The Future Is Here · StreamShop',
      canonical: `${e2e.server.url}/stream-disc`,
      ogUrl: `${e2e.server.url}/stream-disc`,
      ogImage: `${e2e.server.url}/og-image.png`,
    });

    await page.getByRole('link', { name: /Music Edition/ }).click();
    await page
      .getByRole('heading', { level: 1, name: 'Stream Disc: A Modern Alternative to CDs & Vinyl' })
      .waitFor();
    await page.waitForFunction(() => document.title.startsWith('Stream Disc Music Edition'));
    expect(await head()).toEqual({
      title: 'Stream Disc Music Edition: A Modern Alternative to CDs & Vinyl · StreamShop',
      canonical: `${e2e.server.url}/stream-disc/music`,
      ogUrl: `${e2e.server.url}/stream-disc/music`,
      ogImage: `${e2e.server.url}/og-image.png`,
    });

    await page.goBack();
    await page.waitForFunction(() => document.title === 'Stream Disc: The Future Is Here · StreamShop');
    expect((await head()).ogUrl).toBe(`${e2e.server.url}/stream-disc`);
    expect(await page.locator('meta[property="og:url"]').count()).toBe(1);

    // The picture behind og:image is ours and 1200x630.
    const image = await page.request.get('/og-image.png');
    expect(image.headers()['content-type']).toBe('image/png');
    const png = await image.body();
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    watched.expectNoErrors(signedOut);
  });

  it('plays the feature video after a click on the thumbnail', async () => {
    const watched = await newPage();
    await watched.page.goto('/stream-disc');
    await watched.page.getByTestId('feature-video-thumbnail').click();
    const player = watched.page.getByTestId('feature-video-player');
    await player.waitFor();
    await watched.page.waitForFunction(() => {
      const video = document.querySelector('video');
      return video !== null && video.readyState >= 2;
    });
    watched.expectNoErrors(signedOut);
  });
});

describe('prerendered pages', { timeout: 60_000 }, () => {
  /** Whether React has taken over the page's headline (hydrated it). */
  const hydrated = (page: Page) =>
    page.waitForFunction(() => {
      const h1 = document.querySelector('h1');
      return h1 !== null && Object.keys(h1).some((key) => key.startsWith('__reactFiber'));
    });

  it('arrive as HTML and hydrate without errors, keeping the server nodes, and stay interactive', async () => {
    const watched = await newPage();
    const { page } = watched;
    // A handle on the server's headline, taken before any script of the page runs.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { serverHeadline: Element | null }).serverHeadline =
          document.querySelector('h1');
      });
    });
    const response = await page.goto('/stream-disc');
    const html = (await response?.text()) ?? '';
    expect(html).toMatch(/<div id="root" data-prerendered=""/);
    expect(html).toMatch(/<h1[^>]*>The Future Is Here<\/h1>/);
    await hydrated(page);
    expect(
      await page.evaluate(
        () =>
          document.querySelector('h1') ===
          (window as unknown as { serverHeadline: Element | null }).serverHeadline,
      ),
    ).toBe(true);
    // Hydrated and alive: a dialog opens, client-side navigation works.
    await page.getByTestId('join-beta-button').click();
    await page.getByTestId('beta-dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('beta-dialog').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: /Film Edition/ }).click();
    await page
      .getByRole('heading', { level: 1, name: 'Stream Disc: A Modern Alternative to DVDs & Blu-ray' })
      .waitFor();
    watched.expectNoErrors(signedOut);
  });

  /** Holds the app's code (main-*.js) back until the returned function is called. */
  async function holdAppCode(page: Page): Promise<() => void> {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/main-[^/]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }

  it('keeps the scroll position a visitor reached before hydration', async () => {
    const watched = await newPage();
    const { page } = watched;
    const release = await holdAppCode(page);
    await page.goto('/stream-disc', { waitUntil: 'domcontentloaded' });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(500);
    release();
    await hydrated(page);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    watched.expectNoErrors(signedOut);
  });

  it('replays a click made on a button before the page was hydrated', async () => {
    const watched = await newPage();
    const { page } = watched;
    // The app's code waits until the visitor has clicked.
    const release = await holdAppCode(page);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await page.getByTestId('founders-button').click();
    expect(await page.getByTestId('founders-quantity').count()).toBe(0);
    release();
    await page.getByTestId('founders-quantity').waitFor();
    watched.expectNoErrors(signedOut);
  });

  it('show the whole page without JavaScript', async () => {
    const watched = await newPage({ javaScriptEnabled: false });
    const { page } = watched;
    await page.goto('/stream-disc/music');
    await page
      .getByRole('heading', { level: 1, name: 'Stream Disc: A Modern Alternative to CDs & Vinyl' })
      .waitFor();
    expect(await page.getByTestId('nav-sign-in').isVisible()).toBe(true);
    expect(await page.getByTestId('footer').isVisible()).toBe(true);
    expect(await page.getByTestId('explainer').isVisible()).toBe(true);
    expect(await page.title()).toBe(
      'Stream Disc Music Edition: A Modern Alternative to CDs & Vinyl · StreamShop',
    );
  });
});

describe('prefers-reduced-motion', { timeout: 60_000 }, () => {
  /** The landing page's motion as the browser computes it, after a heart sent by the visitor. */
  async function motionOnLanding(reducedMotion: 'reduce' | 'no-preference') {
    const watched = await newPage({ reducedMotion });
    const { page } = watched;
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Shop live. Sell live.' }).waitFor();
    await page.getByRole('button', { name: 'Send a heart' }).first().click();
    const reaction = page.getByTestId('floating-reaction').first();
    await reaction.waitFor({ state: 'attached' });
    const motion = await page.evaluate(() => {
      const style = (selector: string) => {
        const element = document.querySelector(selector);
        return element ? getComputedStyle(element) : undefined;
      };
      return {
        reaction: style('[data-testid="floating-reaction"]')?.animationName,
        disc: style('.ss-spin-slow')?.animationName,
        ring: style('.ss-pulse-ring')?.animationName,
        step: style('[data-testid="explainer"] button')?.transitionDuration,
      };
    });
    // A few bursts' worth of time: only the visitor's own reaction may be there.
    await page.waitForTimeout(3500);
    const floating = await page.getByTestId('floating-reaction').count();
    watched.expectNoErrors(signedOut);
    return { ...motion, floating };
  }

  it('stops the animations and the automatic reactions', async () => {
    const reduced = await motionOnLanding('reduce');
    expect(reduced).toMatchObject({ reaction: 'none', disc: 'none', ring: 'none' });
    expect(reduced.floating).toBeLessThanOrEqual(1);
    expect(Number.parseFloat(reduced.step ?? '1')).toBeLessThan(0.001);
  });

  it('animates them otherwise', async () => {
    const moving = await motionOnLanding('no-preference');
    expect(moving).toMatchObject({ reaction: 'ss-float-up', disc: 'ss-spin', ring: 'ss-pulse-ring' });
    expect(moving.step).toBe('0.5s');
  });
});

describe('beta sign-up on /stream-disc', { timeout: 60_000 }, () => {
  const email = newEmail();

  it("shows POW! / You're In!, then the 'You're in!' toast", async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/stream-disc');
    await page.getByTestId('join-beta-button').click();
    await page.getByTestId('beta-email').fill(`  ${email}  `);
    await page.getByTestId('beta-submit').click();
    // The success view closes itself after 3 s: read it once, as it appears (textContent waits
    // for it and reads it in one step), not in several round trips the close can fall between.
    const success = await page.getByTestId('beta-success').textContent();
    expect(success).toContain('POW!');
    expect(success).toContain("You're In!");
    expect(success).toContain('Welcome to the Stream Disc beta family! 🎉');
    await expectToast(
      page,
      "You're in!",
      "Thanks for signing up for beta access. We'll notify you when we launch!",
    );
    await page.getByTestId('beta-dialog').waitFor({ state: 'detached' });
    watched.expectNoErrors(signedOut);
  });

  it('shows the server message for an email already registered', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/stream-disc');
    await page.getByTestId('join-beta-button').click();
    await page.getByTestId('beta-email').fill(email.toUpperCase());
    await page.getByTestId('beta-submit').click();
    await expectToast(page, 'Signup failed', 'This email is already registered for beta access!');
    watched.expectNoErrors([...signedOut, { status: 409, path: '/api/beta-signup' }]);
  });
});

describe('disc order form', { timeout: 60_000 }, () => {
  it('keeps the form open and names a missing field without sending', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/stream-disc/music');
    await page.getByTestId('preorder-button').click();
    await page.getByTestId('order-name').fill('Marcus Bell');
    await page.getByTestId('order-email').fill(newEmail());
    await page.getByTestId('order-submit').click();
    expect(await page.getByTestId('order-city-error').textContent()).toBe('City is required');
    expect(await page.getByTestId('order-shippingAddress-error').textContent()).toBe(
      'Shipping address is required',
    );
    watched.expectNoErrors(signedOut);
  });

  it('submits from the closing Pre-Order button and shows BOOM!, then the toast', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/stream-disc/film');
    await page.getByTestId('preorder-button-closing').click();
    await page.getByTestId('order-name').fill('Marcus Bell');
    await page.getByTestId('order-email').fill(newEmail());
    await page.getByTestId('order-shippingAddress').fill('12 Harbor Street');
    await page.getByTestId('order-city').fill('Portland');
    await page.getByTestId('order-state').fill('OR');
    await page.getByTestId('order-zipCode').fill('97201');
    await page.getByTestId('order-quantity').fill('5000');
    await page.getByTestId('order-quantity').blur();
    expect(await page.getByTestId('order-quantity').inputValue()).toBe('1000');
    await page.getByTestId('order-submit').click();
    // Read once as it appears: the view closes itself after 3 s (then the toast comes).
    const success = await page.getByTestId('order-success').textContent();
    expect(success).toContain('BOOM!');
    expect(success).toContain('Order Received!');
    await expectToast(page, 'Order Received!');
    watched.expectNoErrors(signedOut);
  });
});

describe('newsletter pre-order (Limited Founders Batch Edition)', { timeout: 60_000 }, () => {
  it('prices 10 discs at $35.00 and reserves them', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/');
    await page.getByTestId('founders-button').click();
    await page.getByTestId('founders-quantity').fill('10');
    expect(await page.getByTestId('founders-unit-price').textContent()).toBe('$3.50');
    expect(await page.getByTestId('founders-total').textContent()).toBe('$35.00');
    await page.getByTestId('founders-name').fill('Nia Okafor');
    await page.getByTestId('founders-email').fill(newEmail());
    await page.getByTestId('founders-submit').click();
    // Read in one step as it appears: the view closes itself after 5 s.
    const reserved = await page.getByTestId('founders-reserved').evaluate((view) => ({
      text: view.textContent,
      total: view.querySelector('[data-testid="founders-reserved-total"]')?.textContent,
    }));
    expect(reserved.text).toContain('RESERVED!');
    expect(reserved.text).toContain('Order Reserved!');
    expect(reserved.total).toBe('$35.00');
    watched.expectNoErrors(signedOut);
  });
});

describe('the $1 reservation on /stream-disc', { timeout: 60_000 }, () => {
  it('pays the deposit on the payment page and comes back to the success toast', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/stream-disc');
    await page.getByTestId('preorder-button').click();
    const dialog = page.getByTestId('reservation-dialog');
    await dialog.getByLabel('Name').fill('Ana Reyes');
    await dialog.getByLabel('Email').fill(newEmail());
    expect(await page.getByTestId('reservation-submit').textContent()).toContain('Reserve for $1');
    await page.getByTestId('reservation-submit').click();
    await page.waitForURL(/\/pay\/pi_local_/);
    expect(await page.getByTestId('hosted-payment').textContent()).toContain('$1.00');
    await payWithCard(page, CARD.success);
    await page.waitForURL(/\/stream-disc/);
    await expectToast(page, 'Pre-Order Successful!');
    await page.waitForFunction(() => !window.location.search.includes('preorder'));
    watched.expectNoErrors(signedOut);
  });

  it('comes back to the cancelled toast when the payer cancels', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/stream-disc');
    await page.getByTestId('preorder-button-closing').click();
    const dialog = page.getByTestId('reservation-dialog');
    await dialog.getByLabel('Name').fill('Ana Reyes');
    await dialog.getByLabel('Email').fill(newEmail());
    await page.getByTestId('reservation-submit').click();
    await page.waitForURL(/\/pay\//);
    await page.getByTestId('hosted-payment-cancel').click();
    await expectToast(page, 'Pre-Order Cancelled');
    watched.expectNoErrors(signedOut);
  });
});

describe('return from the pre-order checkout', { timeout: 60_000 }, () => {
  it('toasts Pre-Order Successful! and removes the parameter', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/stream-disc?preorder=success');
    await expectToast(page, 'Pre-Order Successful!');
    await page.waitForFunction(() => !window.location.search.includes('preorder'));
    expect(new URL(page.url()).pathname).toBe('/stream-disc');
    watched.expectNoErrors(signedOut);
  });

  it('toasts Pre-Order Cancelled for a cancelled checkout', async () => {
    const watched = await newPage();
    const { page } = watched;
    await page.goto('/stream-disc?preorder=cancelled');
    await expectToast(page, 'Pre-Order Cancelled');
    await page.waitForFunction(() => !window.location.search.includes('preorder'));
    watched.expectNoErrors(signedOut);
  });
});
