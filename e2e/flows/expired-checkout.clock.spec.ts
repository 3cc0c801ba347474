/**
 * An expired checkout (30 minutes after creation), on the harness's gateway with a test clock
 * (GATEWAY_TEST_CLOCK): the flow moves its time through the admin API (`POST /admin/v1/clock`),
 * as a QA suite does. The clock only moves forward, so this file runs in its own Playwright
 * project (`clock`, see playwright.config.ts), one test at a time.
 */
import { testClock } from '../kit/admin';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';

test.describe.configure({ mode: 'serial' });

test('paying after the checkout expired tells the shopper the session is over', async ({
  shop,
  card,
  page,
  harness,
  browserErrors,
}) => {
  // The gateway answers the late payment with HTTP 400 (200.300.404); the shopper sees a message.
  browserErrors.allow(/Failed to load resource: the server responded with a status of 400/);
  // the harness's gateway on the test clock, through its own demo shop
  const clockShop = shop.at(harness.clock.shopUrl);
  await clockShop.open();
  await card.ready();
  await card.fill(TEST_CARD);
  // 31 minutes later on the gateway's clock.
  // The QA kit's clock (e2e/kit/admin.ts), as a QA suite moves it.
  const clock = testClock({ url: harness.clock.gatewayUrl, adminToken: harness.clock.adminToken });
  const moved = await clock.advance('31m');
  expect(moved.ran.checkoutExpiry).toBeGreaterThanOrEqual(1);
  const shopUrl = page.url();
  await card.pay();
  await expect(clockShop.notice).toHaveText(
    'This payment session has expired. Please return to the shop and start again.',
  );
  await expect(clockShop.notice).toHaveAttribute('role', 'alert');
  await expect(card.payButton).toBeDisabled();
  expect(page.url()).toBe(shopUrl);
  // No decline message competes with the expiry notice.
  await expect(card.message).toBeEmpty();
});
