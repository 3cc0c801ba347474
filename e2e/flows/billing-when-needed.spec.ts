/**
 * The billing address only when it is needed (DECISIONS, "Widget and 3-D Secure v2 data"): the shop
 * creates the checkout with entityId, amount, currency and paymentType only (`billing=0`) on the
 * demo channel, which authenticates shoppers with 3-D Secure. A card that needs no authentication
 * pays with number, expiry, CVV and holder, nothing else shown; an enrolled card is answered by the
 * gateway with the billing fields it needs, the widget asks exactly those, then the challenge. The
 * browser's description goes with the card, as the browser itself would give it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { BERLIN, BillingAddress } from '../pages/BillingAddress';
import { type Card, TEST_CARD } from '../pages/CardForm';
import { CHALLENGE_CODE } from '../pages/ChallengePage';
import { expect, test } from '../support/fixtures';
import { checkoutStatus, paymentStatus } from '../support/gateway';

/** Enrolled, challenged: the issuer's page asks for the code. */
const CHALLENGE: Card = { ...TEST_CARD, number: '4200000000000042' };
const SCREENSHOTS = new URL('../screenshots/', import.meta.url);

/** The classes of the form's groups the shopper sees (`wpwl-group-<field>`), in order. */
const visibleGroups = (form: import('@playwright/test').Locator) =>
  form
    .locator('.wpwl-group:visible')
    .evaluateAll((groups) =>
      groups.map((g) =>
        [...g.classList].find((c) => c.startsWith('wpwl-group-') && !/^wpwl-group-(billing|submit)$/.test(c)),
      ),
    );

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

test('an enrolled card: the widget asks for exactly the billing fields the gateway names, then the challenge', async ({
  page,
  shop,
  card,
  modal,
  result,
  request,
  harness,
  browserErrors,
}) => {
  // The gateway's 400 naming the fields: Chromium logs every 400 it loads.
  browserErrors.allow(/status of 400 \(Bad Request\).*\/v1\/checkouts\/[^/]+\/payment/);
  await shop.open({ billing: false });
  const checkoutId = await shop.checkoutId();
  await mkdir(SCREENSHOTS, { recursive: true });
  await card.ready();
  const billing = new BillingAddress(page);
  await expect(billing.group).toHaveCount(0);
  await card.fill(CHALLENGE);
  const refused = page.waitForResponse((r) => r.url().endsWith(`/v1/checkouts/${checkoutId}/payment`));
  await card.pay();
  const answer = await (await refused).json();
  expect(answer.result.parameterErrors.map((e: { name: string }) => e.name).sort()).toEqual([
    'billing.city',
    'billing.country',
    'billing.postcode',
    'billing.street1',
  ]);

  await billing.expectShown();
  expect(await visibleGroups(billing.group)).toEqual([
    'wpwl-group-street1',
    'wpwl-group-city',
    'wpwl-group-postcode',
    'wpwl-group-country',
  ]);
  await expect(card.message).toHaveText(
    'Your card issuer needs your billing address to confirm this payment.',
  );
  await expect(billing.hint('street1')).toHaveText('Please fill in this field.');
  await expect(billing.control('street1')).toBeFocused();
  await writeFile(new URL('billing-when-needed-address-asked.png', SCREENSHOTS), await page.screenshot());
  // The card is still there: the shopper types only the address.
  await expect(card.holder).toHaveValue(CHALLENGE.holder);
  await billing.fill(BERLIN);
  await card.pay();
  await modal.expectOpen('Pay with Visa');
  await modal.challenge().answer(CHALLENGE_CODE);
  await result.expectOutcome('success', '000.100.110');

  const status = await checkoutStatus(request, harness, checkoutId);
  expect(status.threeDSecure).toMatchObject({ authenticationStatus: 'Y' });
  const payment = (await paymentStatus(request, harness, status.id!)) as { billing?: unknown };
  expect(payment.billing).toMatchObject({
    street1: 'Hauptstrasse 1',
    city: 'Berlin',
    postcode: '10115',
    country: 'DE',
  });
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
