/**
 * Screenshots of the card form, narrow (360 px, a small phone) and wide (1280 px), written to
 * e2e/screenshots/ (gitignored) for a look after each run, with layout checks that would catch
 * the obvious breakage: nothing wider than the viewport, expiry and CVV side by side, the brand's
 * logo (loaded) inside the number field. brands.spec.ts adds the MADA logo at 390 and 1280 px.
 * Then the dashboard's pages new since the last issue (below).
 */
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { AdminShell } from '../pages/admin/AdminShell';
import { HomePage } from '../pages/admin/HomePage';
import { pageShots } from '../pages/admin/pageShots';
import { SignInPage } from '../pages/admin/SignInPage';
import { TEST_CARD } from '../pages/CardForm';
import { type BrowserErrors, expect, test } from '../support/fixtures';
import type { HarnessInfo } from '../support/harness';

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

/**
 * The dashboard's home page, where an operator lands after signing in: the day's figures (charts,
 * and their tables, light and dark) at 1280 and 390 px with axe (no violation at all) and a
 * screenshot each (e2e/test-results/screenshots/<page>-<width>.png, printed); then one merchant's
 * figures, picked. The other new pages' shots are in the flows that use them: the merchant's home
 * (home-merchant) admin-merchant.spec.ts, the delivery log and the audit log admin-money.spec.ts,
 * the TOTP QR code admin-account.spec.ts, the saved cards, export, search and recent requests
 * admin-records.spec.ts, the connectors admin-channel.spec.ts, the test clock admin-clock.clock.spec.ts.
 */
test.describe('the dashboard’s home page', () => {
  // axe at two widths, on two cores shared by many
  test.setTimeout(180_000);

  const signedIn = async (page: Page, harness: HarnessInfo, browserErrors: BrowserErrors) => {
    browserErrors.allow(/status of 401/);
    const shell = new AdminShell(page);
    const signIn = new SignInPage(page);
    await signIn.open(harness.gatewayUrl);
    await signIn.username.fill(harness.admin.operator.username);
    await signIn.password.fill(harness.admin.operator.password);
    await signIn.submit.click();
    // the password's hash is slow on purpose, slower on a busy machine
    await expect(shell.signOutButton).toBeVisible({ timeout: 60_000 });
    return shell;
  };

  test('today’s figures: charts with their tables, light and dark', async ({
    page,
    harness,
    browserErrors,
  }) => {
    // four axe runs over the charts' tables
    test.setTimeout(360_000);
    // one payment of today on the demo merchant's VISA/MASTER channel: a volume to draw
    const paid = await fetch(`${harness.gatewayUrl}/v1/payments`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${harness.accessToken}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        entityId: harness.channels.visaMaster.entityId,
        amount: '12.34',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: 'VISA',
        'card.number': TEST_CARD.number,
        'card.holder': TEST_CARD.holder,
        'card.expiryMonth': TEST_CARD.expiry.slice(0, 2),
        'card.expiryYear': `20${TEST_CARD.expiry.slice(3)}`,
        'card.cvv': TEST_CARD.cvv,
      }),
    });
    expect(paid.status, await paid.clone().text()).toBe(200);
    await signedIn(page, harness, browserErrors);
    // signing in lands here
    const home = new HomePage(page);
    await home.expectShown();
    const volume = home.chart('Volume per hour, EUR');
    await expect(volume.locator('canvas')).toBeVisible();
    // the chart's alternative: the same figures as a table, the hour of the payment not empty
    await volume.getByText('Volume per hour, EUR as a table').click();
    const hour = `${new Date().toISOString().slice(11, 13)}:00`;
    const row = volume.getByRole('row').filter({ hasText: hour });
    await expect(row.getByRole('cell').nth(1)).not.toHaveText(/^\D*0[.,]00\D*$/);
    await expect(home.brands).toContainText('VISA');
    await pageShots(page, 'today');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(volume.locator('canvas')).toBeVisible();
    await pageShots(page, 'today-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // one merchant's figures (the pick kept in the location), and its payments of the day one click away
    await home.pick(harness.admin.merchantId);
    await expect(home.brands).toContainText('VISA');
    await home.next.getByRole('link', { name: "The day's payments" }).click();
    await new AdminShell(page).expectPage('Payments');
    const today = new Date().toISOString().slice(0, 10);
    await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}`));
    await expect(page.getByLabel('From date (UTC)')).toHaveValue(today);
    await expect(
      page
        .getByRole('table', { name: /Payments/ })
        .locator('tbody tr')
        .first(),
    ).toBeVisible();
  });
});
