/**
 * The widget's polish, in Chromium against the real gateway and demo shop:
 * - buttons and labels name brands by the catalogue's display names ("Pay with Klarna Pay Later",
 *   "Sofort"), never their codes;
 * - the card form shows the accepted brands' logos (the family's `wpwl-brand` row) before the
 *   shopper types, then highlights the detected brand and dims the others;
 * - in a dark colour scheme the widget is dark and its labels readable (axe colour contrast);
 * - theme variables set on `.wpwl-container` (not only `:root`) reach its labels.
 */
import type { Locator, Page } from '@playwright/test';
import { seriousViolations } from '../support/axe';
import { expect, test } from '../support/fixtures';

const colourOf = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).color);
const backgroundOf = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).backgroundColor);
const CONTAINER_THEME =
  '.wpwl-container { --wpwl-text: #f0f3f6; --wpwl-muted: #b0b8c1; --wpwl-surface: #1c2128; --wpwl-bg: #22272e; --wpwl-border: #545d68; }';
const row = (page: Page) => page.locator('form.wpwl-form-card .wpwl-brands > .wpwl-brand');

test('the buttons name each brand by its display name, not its code', async ({ shop, redirectForm }) => {
  await shop.open({ brands: 'PAYPAL SOFORTUEBERWEISUNG KLARNA_PAYMENTS_PAYLATER' });
  await expect(redirectForm.button('PAYPAL')).toHaveText('Pay with PayPal');
  await expect(redirectForm.button('SOFORTUEBERWEISUNG')).toHaveText('Pay with Sofort');
  await expect(redirectForm.button('KLARNA_PAYMENTS_PAYLATER')).toHaveText('Pay with Klarna Pay Later');
});

test('the accepted brands’ logos show before typing; the detected one is highlighted, the others dimmed', async ({
  shop,
  card,
  page,
  harness,
}) => {
  await shop.open({ brands: 'VISA MASTER AMEX' });
  await card.ready();
  await expect(row(page)).toHaveCount(3);
  for (const [i, brand, name] of [
    [0, 'VISA', 'Visa'],
    [1, 'MASTER', 'Mastercard'],
    [2, 'AMEX', 'American Express'],
  ] as const) {
    await expect(row(page).nth(i)).toHaveClass(new RegExp(`\\bwpwl-brand-${brand}\\b`));
    const logo = row(page).nth(i).locator('img.wpwl-logo');
    await expect(logo).toHaveAttribute('alt', name);
    await expect(logo).toHaveAttribute('src', `${harness.gatewayUrl}/v1/widget/logos/${brand}.svg`);
    await expect
      .poll(() => logo.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  }
  await expect(page.locator('.wpwl-brands .wpwl-brand-dimmed')).toHaveCount(0);

  await card.fillNumber('5454');
  await expect(row(page).nth(1)).toHaveClass(/\bwpwl-brand-detected\b/);
  await expect(row(page).nth(0)).toHaveClass(/\bwpwl-brand-dimmed\b/);
  await expect(row(page).nth(2)).toHaveClass(/\bwpwl-brand-dimmed\b/);
  await expect
    .poll(() =>
      row(page)
        .nth(0)
        .evaluate((el) => getComputedStyle(el).opacity),
    )
    .toBe('0.35');
});

test.describe('in a dark colour scheme', () => {
  test.use({ colorScheme: 'dark' });

  test('the widget is dark and its labels readable: axe finds no contrast fault', async ({
    shop,
    card,
    page,
  }) => {
    await shop.open({ brands: 'VISA MASTER PAYPAL' });
    await card.ready();
    const form = page.locator('form.wpwl-form-card');
    expect(await backgroundOf(form)).toBe('rgb(22, 27, 34)');
    expect(await colourOf(form.locator('.wpwl-label-cardHolder'))).toBe('rgb(230, 237, 243)');
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test('theme variables set on .wpwl-container reach its labels (dark on a light page)', async ({
  shop,
  card,
  page,
}) => {
  // The shop's own stylesheet, in its <head> as soon as there is one: before the widget starts.
  await page.addInitScript((css) => {
    if (window !== window.top) return; // the shop's page, not the gateway's frames
    const observer = new MutationObserver(() => {
      if (!document.head) return;
      observer.disconnect();
      const style = document.createElement('style');
      style.textContent = css;
      document.head.append(style);
    });
    observer.observe(document, { childList: true, subtree: true });
  }, CONTAINER_THEME);
  await shop.open({ brands: 'VISA MASTER' });
  await card.ready();
  const form = page.locator('form.wpwl-form-card');
  expect(await backgroundOf(form)).toBe('rgb(28, 33, 40)');
  expect(await colourOf(form.locator('.wpwl-label-cardHolder'))).toBe('rgb(240, 243, 246)');
  expect(await colourOf(form.locator('input.wpwl-control-cardHolder'))).toBe('rgb(240, 243, 246)');
  expect(await seriousViolations(page)).toEqual([]);
});
