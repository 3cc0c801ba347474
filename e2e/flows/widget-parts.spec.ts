/**
 * paymentWidgets.js and its parts (widget/build/parts.ts): code only some checkouts need, fetched
 * from the gateway with the sha384 paymentWidgets.js carries. A part that fails its check never
 * runs (the modal's dialog, tampered on its way, during a 3-D Secure challenge); the script loaded
 * again after `wpwl.unload()` starts afresh.
 */
import type { Page, Route } from '@playwright/test';
import { cards } from '../kit/cards';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';

const MODAL_PART = /\/v1\/widget\/parts\/PaymentModal-[\w-]{10}\.js$/;

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

test('a part that fails its integrity check never runs: the challenge’s dialog is refused, onError hears a WidgetError, the form is usable again', async ({
  shop,
  card,
  page,
  browserErrors,
}) => {
  // Chromium: "Failed to find a valid digest in the 'integrity' attribute for resource …"
  browserErrors.allow(/integrity/i);
  await recordErrors(page);
  let tampered = 0;
  await page.route(MODAL_PART, async (route: Route) => {
    const response = await route.fetch();
    // A statement that would run first if the module were evaluated.
    const body = `globalThis.__tampered = true;\n${await response.text()}`;
    tampered++;
    await route.fulfill({ response, body });
  });
  await shop.open();
  await card.ready();
  await card.fill(cards.challenge);
  await card.pay();
  await page.waitForFunction(() =>
    (window as unknown as { __errors: { message: string }[] }).__errors.some((e) =>
      /did not load/.test(e.message),
    ),
  );
  expect(tampered).toBeGreaterThan(0);
  const errors = await page.evaluate(() => (window as unknown as { __errors: unknown[] }).__errors);
  expect(errors).toContainEqual({
    name: 'WidgetError',
    message: expect.stringMatching(/^A part of the widget did not load: .*integrity/),
  });
  expect(await page.evaluate(() => '__tampered' in globalThis)).toBe(false);
  // The flow ends as cancelled: no dialog, the form says so and can pay again.
  await expect(page.locator('.wpwl-modal')).toHaveCount(0);
  await expect(card.message).toHaveText(/The payment was cancelled/);
  await expect(card.payButton).toBeEnabled();
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
  // The script runs again from its first statement: a widget of its own, once ready.
  await page.waitForFunction(() => (window as { wpwl?: { isReady?: boolean } }).wpwl?.isReady === true);
  await expect(page.locator('div.wpwl-widget')).toHaveCount(1);
  await expect(page.locator('iframe.wpwl-control-cardNumber')).toHaveCount(1);
  await card.ready();
  await card.fill(TEST_CARD);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  expect(browserErrors.seen).toEqual([]);
});
