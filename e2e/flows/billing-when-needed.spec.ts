/**
 * The billing address only when it is needed (DECISIONS, "Widget and 3-D Secure v2 data"): the shop
 * creates the checkout with entityId, amount, currency and paymentType only (`billing=0`) on the
 * demo channel, which authenticates shoppers with 3-D Secure. A card that needs no authentication
 * pays with number, expiry, CVV and holder, nothing else shown; an enrolled card is answered by the
 * gateway with the billing fields it needs, the widget asks exactly those, then the challenge
 * (billing-address.spec.ts). The browser's description goes with the card, as the browser itself
 * would give it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { BillingAddress } from '../pages/BillingAddress';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';
import { SCREENSHOTS, visibleGroups } from '../support/form-groups';
import { checkoutStatus, paymentStatus } from '../support/gateway';

test('a card that needs no authentication pays with number, expiry, CVV and holder: nothing else shown', async ({
  page,
  shop,
  card,
  result,
}, testInfo) => {
  await shop.open({ billing: false });
  await card.ready();
  await card.fill(TEST_CARD);
  const billing = new BillingAddress(page);
  await expect(billing.group).toHaveCount(0);
  expect(await visibleGroups(card.form)).toEqual([
    'wpwl-group-cardNumber',
    'wpwl-group-expiry',
    'wpwl-group-cvv',
    'wpwl-group-cardHolder',
    undefined,
  ]);

  const screenshot = await page.screenshot();
  await testInfo.attach('form-before-paying', { body: screenshot, contentType: 'image/png' });
  await mkdir(SCREENSHOTS, { recursive: true });
  await writeFile(new URL('billing-when-needed-form-before-paying.png', SCREENSHOTS), screenshot);

  await card.pay();
  await result.expectOutcome('success', '000.100.110');
});

test('the widget sends the browser’s own description: what it accepts for a document, user agent, language, screen, time zone', async ({
  page,
  shop,
  card,
  result,
  request,
  harness,
}) => {
  await shop.open({ billing: false });
  const checkoutId = await shop.checkoutId();
  await card.ready();
  await card.fill(TEST_CARD);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  const own = await page.evaluate(() => ({
    userAgent: navigator.userAgent,
    language: navigator.language,
    screenHeight: String(screen.height),
    screenWidth: String(screen.width),
    screenColorDepth: String(screen.colorDepth),
    timezone: String(new Date().getTimezoneOffset()),
  }));

  const status = await checkoutStatus(request, harness, checkoutId);
  const payment = (await paymentStatus(request, harness, status.id!)) as {
    customer?: { browser?: Record<string, string> };
  };
  const browser = payment.customer?.browser ?? {};
  expect(browser.acceptHeader).toBe('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
  expect(browser).toMatchObject({ ...own, javaEnabled: 'false' });
  expect(browser.challengeWindow).toMatch(/^[1-5]$/);
});
