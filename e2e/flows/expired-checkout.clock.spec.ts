/**
 * An expired checkout (30 minutes after creation). Moving the gateway's clock affects every
 * checkout in the run, so this file runs in its own Playwright project (`clock`, see
 * playwright.config.ts) after all other flows have finished, one test at a time, and puts the
 * clock back after each test.
 */
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';

test.describe.configure({ mode: 'serial' });

test.afterEach(async ({ request, harness }) => {
  const res = await request.post(`${harness.controlUrl}/clock/reset`);
  expect(res.ok()).toBe(true);
});

test('paying after the checkout expired tells the shopper the session is over', async ({
  shop,
  card,
  page,
  request,
  harness,
  browserErrors,
}) => {
  // The gateway answers the late payment with HTTP 400 (200.300.404); the shopper sees a message.
  browserErrors.allow(/Failed to load resource: the server responded with a status of 400/);
  await shop.open();
  await card.ready();
  await card.fill(TEST_CARD);
  // 31 minutes later on the gateway's clock.
  const moved = await request.post(`${harness.controlUrl}/clock/advance?ms=1860000`);
  expect(moved.ok()).toBe(true);
  const shopUrl = page.url();
  await card.pay();
  await expect(shop.notice).toHaveText(
    'This payment session has expired. Please return to the shop and start again.',
  );
  await expect(shop.notice).toHaveAttribute('role', 'alert');
  await expect(card.payButton).toBeDisabled();
  expect(page.url()).toBe(shopUrl);
  // No decline message competes with the expiry notice.
  await expect(card.message).toBeEmpty();
});
