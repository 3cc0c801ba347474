/**
 * paymentWidgets.js is a small loader (issue 21): its first statements send the session read and
 * start the two card frames, then it loads the rest of the widget, the main part
 * (`/v1/widget/parts/main-<hash>.js`), pinned by the sha384 the loader carries. These flows hold the
 * main part back to see what runs before it, and tamper with it to see the browser refuse it.
 */
import type { Page, Route } from '@playwright/test';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';

const MAIN_PART = /\/v1\/widget\/parts\/main-[\w-]{10}\.js$/;

/** Records what the page's onError hears, whatever wpwlOptions the page assigns. */
async function recordErrors(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __errors: { name: string; message: string }[] };
    w.__errors = [];
    let current: unknown;
    Object.defineProperty(window, 'wpwlOptions', {
      configurable: true,
      get: () => current,
      set(value: unknown) {
        current = value;
        if (value !== null && typeof value === 'object')
          (value as { onError?: unknown }).onError = (e: Error) =>
            w.__errors.push({ name: e.name, message: e.message });
      },
    });
  });
}

test('the loader starts the session read and the card frames before the main part arrives; the form takes those frames and pays', async ({
  shop,
  card,
  result,
  page,
  browserErrors,
}) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let mainRequested = false;
  await page.route(MAIN_PART, async (route: Route) => {
    mainRequested = true;
    await held;
    await route.continue();
  });
  const session = page.waitForRequest((r) => /\/v1\/checkouts\/[^/]+\/session$/.test(r.url()));
  const frameDocuments = page.waitForRequest((r) => r.url().includes('/v1/widget/frames/card-field.html'));
  // Not until `load`: the held main part keeps the page loading.
  await page.goto(shop.url(), { waitUntil: 'domcontentloaded' });
  await session;
  await frameDocuments;
  // The two frames wait in their room, bound to the checkout, and load their field meanwhile.
  const waiting = page.locator('[data-wpwl="frames"] iframe');
  await expect(waiting).toHaveCount(2);
  await expect(waiting.nth(0).contentFrame().locator('input')).toBeAttached();
  expect(mainRequested).toBe(true);
  // Nothing of the main part has run: no wpwl, no form drawn.
  expect(await page.evaluate(() => 'wpwl' in window)).toBe(false);
  await expect(page.locator('div.wpwl-widget')).toHaveCount(0);
  await page.evaluate(() => {
    const frame = document.querySelector<HTMLIFrameElement>('[data-wpwl="frames"] iframe');
    (window as unknown as { __started?: Window | null }).__started = frame?.contentWindow;
  });

  release();
  await page.waitForFunction(() => (window as { wpwl?: { isReady?: boolean } }).wpwl?.isReady === true);
  await card.ready();
  // The card form's number field is the frame the loader started (moved, its document kept).
  expect(
    await page.evaluate(
      () =>
        document.querySelector<HTMLIFrameElement>('iframe.wpwl-control-cardNumber')?.contentWindow ===
        (window as unknown as { __started?: Window | null }).__started,
    ),
  ).toBe(true);
  await expect(page.locator('[data-wpwl="frames"]')).toHaveCount(0);
  await card.fill(TEST_CARD);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  expect(browserErrors.seen).toEqual([]);
});

test('a main part that fails its integrity check never runs: the frames are removed, onError hears a WidgetError, the page’s form stays', async ({
  shop,
  page,
  browserErrors,
}) => {
  // Chromium: "Failed to find a valid digest in the 'integrity' attribute for resource …"
  browserErrors.allow(/integrity/i);
  await recordErrors(page);
  let tampered = false;
  await page.route(MAIN_PART, async (route: Route) => {
    const response = await route.fetch();
    // A statement that would run first if the module were evaluated.
    const body = `globalThis.__tampered = true;\n${await response.text()}`;
    tampered = true;
    await route.fulfill({ response, body });
  });
  const blocked = page.waitForEvent('console', (m) => m.type() === 'error' && /integrity/i.test(m.text()));
  await page.goto(shop.url());
  await blocked;
  await page.waitForFunction(() => (window as unknown as { __errors: unknown[] }).__errors.length > 0);
  expect(tampered).toBe(true);
  const errors = await page.evaluate(() => (window as unknown as { __errors: unknown[] }).__errors);
  expect(errors).toEqual([
    { name: 'WidgetError', message: expect.stringMatching(/^The widget did not load: .*integrity/) },
  ]);
  expect(await page.evaluate(() => 'wpwl' in window || '__tampered' in globalThis)).toBe(false);
  await expect(page.locator('.wpwl-widget, .wpwl-form')).toHaveCount(0);
  // The frames the loader started are gone with it.
  await expect(page.locator('[data-wpwl="frames"], iframe')).toHaveCount(0);
  await expect(page.locator('form.paymentWidgets')).toHaveJSProperty('hidden', false);
});

test('paymentWidgets.js loaded again after wpwl.unload() starts afresh: one widget, its own frames, and the card form pays', async ({
  shop,
  card,
  result,
  page,
  browserErrors,
}) => {
  await shop.open();
  await card.ready();
  await page.evaluate(() => {
    const old = [...document.scripts].find((s) => /\/v1\/paymentWidgets\.js\?/.test(s.src));
    if (old === undefined) throw new Error('no widget script on the page');
    (window as { wpwl?: { unload(): void } }).wpwl?.unload();
    const again = document.createElement('script');
    again.src = old.src;
    document.body.append(again);
  });
  // The main part comes from the document's module map, already checked: its body runs again.
  await page.waitForFunction(() => (window as { wpwl?: { isReady?: boolean } }).wpwl?.isReady === true);
  await expect(page.locator('div.wpwl-widget')).toHaveCount(1);
  await expect(page.locator('iframe.wpwl-control-cardNumber')).toHaveCount(1);
  await card.ready();
  await card.fill(TEST_CARD);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  expect(browserErrors.seen).toEqual([]);
});
