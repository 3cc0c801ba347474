/**
 * Card payments through the real pages: the shop creates a checkout, the shopper types into the
 * widget (number and CVV in the gateway's frames), the frame posts the payment, and the shop's
 * result page reads it back from the gateway (GET resourcePath).
 */
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';
import { checkoutStatus } from '../support/gateway';

/** Chromium logs the gateway's HTTP 400 for a declined payment; the shopper sees the message. */
const DECLINE_400 = /Failed to load resource: the server responded with a status of 400/;

test('a card payment with the test card succeeds and the shop reads 000.100.110', async ({
  shop,
  card,
  result,
}) => {
  await shop.open();
  await card.ready();
  await expect(card.payButton).toHaveText(/Pay\s.*92\.00/);
  await card.fill(TEST_CARD);
  await expect(card.brand).toHaveClass(/\bwpwl-brand-VISA\b/);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  await expect(result.paymentId).toHaveText(/^[0-9a-f]{32}$/);
});

test('a card the issuer declines shows the decline on the form; another card then pays', async ({
  shop,
  card,
  result,
  page,
  request,
  harness,
  browserErrors,
}) => {
  browserErrors.allow(DECLINE_400);
  await shop.open();
  await card.ready();
  // 4000000000000002 passes every check in the browser; the simulator declines it (800.100.151).
  await card.fill({ ...TEST_CARD, number: '4000000000000002' });
  const shopUrl = page.url();
  await card.pay();
  await expect(card.message).toHaveText(/The payment was declined/);
  await expect(card.message).toHaveAttribute('role', 'alert');
  await expect(card.payButton).toBeEnabled();
  expect(page.url()).toBe(shopUrl);
  // The checkout stays open after a decline; its status is that declined attempt.
  const status = await checkoutStatus(request, harness, await shop.checkoutId());
  expect(status.result?.code).toBe('800.100.151');

  await card.fillNumber(TEST_CARD.number);
  await card.fillCvv(TEST_CARD.cvv);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
});

test('brand detection follows the number: VISA → MASTER → AMEX on the brand indicator', async ({
  shop,
  card,
}) => {
  await shop.open();
  await card.ready();
  await expect(card.brand).not.toHaveClass(/wpwl-brand-(VISA|MASTER|AMEX)/);
  await expect(card.brand).toBeHidden();

  await card.fillNumber('4200000000000000');
  await expect(card.brand).toHaveClass(/\bwpwl-brand-VISA\b/);
  await card.expectLogo('Visa');

  await card.fillNumber('5200000000000007');
  await expect(card.brand).toHaveClass(/\bwpwl-brand-MASTER\b/);
  await expect(card.brand).not.toHaveClass(/wpwl-brand-VISA/);

  await card.fillNumber('5232105022907162');
  await expect(card.brand).toHaveClass(/\bwpwl-brand-MASTER\b/);
  await expect(card.frameInput('cardNumber')).toHaveValue('5232 1050 2290 7162');

  await card.fillNumber('377777777777770');
  await expect(card.brand).toHaveClass(/\bwpwl-brand-AMEX\b/);
  // AMEX numbers are grouped 4-6-5, and the AMEX CVV has four digits.
  await expect(card.frameInput('cardNumber')).toHaveValue('3777 777777 77770');
  await card.fillCvv('12345');
  await expect(card.frameInput('cvv')).toHaveValue('1234');
});

test('an AMEX card with its four-digit CVV pays', async ({ shop, card, result }) => {
  await shop.open();
  await card.ready();
  await card.fill({ number: '377777777777770', expiry: '05/34', cvv: '1234', holder: 'Jane Jones' });
  await expect(card.brand).toHaveClass(/\bwpwl-brand-AMEX\b/);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
});

test('onBeforeSubmitCard returning false stops the payment (preset holder-check)', async ({
  shop,
  card,
  result,
  page,
  request,
  harness,
}) => {
  await shop.open({ preset: 'holder-check' });
  await card.ready();
  await card.fill({ ...TEST_CARD, holder: 'Jane' });
  const shopUrl = page.url();
  await card.pay();
  await expect(page.locator('body')).toHaveAttribute('data-blocked', 'holder');
  // Nothing was sent: the page stays, the button is usable, the checkout is unpaid.
  await expect(card.payButton).toBeEnabled();
  await expect(card.payButton).toHaveAttribute('aria-busy', 'false');
  expect(page.url()).toBe(shopUrl);
  const status = await checkoutStatus(request, harness, await shop.checkoutId());
  expect(status.result?.code).toBe('000.200.000');

  // The page's own check passes with two words, and the same form pays.
  await card.fillHolder(TEST_CARD.holder);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
});
