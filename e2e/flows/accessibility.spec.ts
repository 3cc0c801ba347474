/**
 * axe-core on the card form: as loaded, with every field in error, and in Arabic (right to
 * left). The card-field frames are scanned too (AxeBuilder follows iframes). No serious or
 * critical violation is allowed.
 */
import { seriousViolations } from '../support/axe';
import { expect, test } from '../support/fixtures';

test('the card form as loaded', async ({ shop, card, page }) => {
  await shop.open();
  await card.ready();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the card form with every field in error', async ({ shop, card, page }) => {
  await shop.open();
  await card.ready();
  await card.pay();
  await expect(card.hint('cardHolder')).toBeVisible();
  await expect(card.form.locator('.wpwl-hint')).toHaveCount(4);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the card form in Arabic renders right to left', async ({ shop, card, page }) => {
  await shop.open({ preset: 'ar' });
  await card.ready();
  await expect(shop.widget).toHaveAttribute('dir', 'rtl');
  await expect(shop.widget).toHaveAttribute('lang', 'ar');
  // The frames follow the page's direction; the number itself stays left to right.
  await expect(card.numberFrame.contentFrame().locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(card.frameInput('cardNumber')).toHaveAttribute('dir', 'ltr');
  // The label sits at the right edge in RTL.
  const label = await card.label('cardNumber').boundingBox();
  const form = await card.form.boundingBox();
  expect(label && form && form.x + form.width - (label.x + label.width)).toBeLessThan(40);
  expect(await seriousViolations(page)).toEqual([]);
  await card.pay();
  await expect(card.form.locator('.wpwl-hint')).toHaveCount(4);
  expect(await seriousViolations(page)).toEqual([]);
});
