/**
 * Screenshots of the card form, narrow (360 px, a small phone) and wide (1280 px), written to
 * e2e/screenshots/ (gitignored) for a look after each run, with layout checks that would catch
 * the obvious breakage: nothing wider than the viewport, expiry and CVV side by side, the brand's
 * logo (loaded) inside the number field. brands.spec.ts adds the MADA logo at 390 and 1280 px.
 */
import { fileURLToPath } from 'node:url';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';

const DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

for (const width of [360, 1280]) {
  test(`the card form at ${width} px`, async ({ shop, card, page }) => {
    await page.setViewportSize({ width, height: 800 });
    await shop.open();
    await card.ready();
    await card.fillNumber(TEST_CARD.number);
    await card.fillExpiry(TEST_CARD.expiry);
    await card.fillHolder(TEST_CARD.holder);
    await expect(card.brand).toHaveClass(/\bwpwl-brand-VISA\b/);
    await card.expectLogo('Visa');

    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, 'no horizontal scrolling').toBeLessThanOrEqual(width);
    const form = (await card.form.boundingBox())!;
    expect(form.x).toBeGreaterThanOrEqual(0);
    expect(form.x + form.width).toBeLessThanOrEqual(width);
    const expiry = (await card.expiry.boundingBox())!;
    const cvv = (await card.cvvFrame.boundingBox())!;
    expect(Math.abs(expiry.y - cvv.y), 'expiry and CVV on one row').toBeLessThan(2);
    expect(cvv.x).toBeGreaterThan(expiry.x + expiry.width);
    const number = (await card.numberFrame.boundingBox())!;
    const badge = (await card.brand.boundingBox())!;
    expect(badge.x).toBeGreaterThan(number.x);
    expect(badge.x + badge.width).toBeLessThanOrEqual(number.x + number.width);
    expect(badge.y).toBeGreaterThanOrEqual(number.y);
    expect(badge.y + badge.height).toBeLessThanOrEqual(number.y + number.height);

    await page.screenshot({ path: `${DIR}card-form-${width}.png`, fullPage: true });
  });
}
