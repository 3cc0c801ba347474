/**
 * The QA kit's widget driver (`paymentWidget(page)`, e2e/kit/widget/) on a gateway the kit did not
 * start (the harness's) and a page it knows nothing about (the demo shop): every part of it, each
 * ended by `expectResult`, which reads the result from the gateway as the shop does. The example
 * QA project (e2e/examples/qa-playwright/) runs the kit's gateway, clock and inbox on its own shop.
 */

import type { Page } from '@playwright/test';
import { cards, ibans, paymentWidget, redirectMethods, walletCards } from '../kit';
import { FAILED_RESULT_402 } from '../pages/ResultPage';
import { expect, type Fixtures, test } from '../support/fixtures';
import { createRegistration } from '../support/gateway';

const CANCELLED = 'The payment was cancelled. You can choose another payment method.';
/** A declined submission's answer (HTTP 400) and a failed result page (402), logged by Chromium. */
const DECLINE_STATUSES = /the server responded with a status of 40[02]/;

test('card: fill, brand, error, pay and expectResult', async ({ shop, page }) => {
  await shop.open();
  const widget = paymentWidget(page);
  await widget.ready();
  expect(await widget.checkoutId()).toBe(await shop.checkoutId());
  // Needs only the page: the gateway's address comes from the widget's own script.
  expect(await widget.card.message()).toBe(undefined);
  await widget.card.fill({ number: '4200000000000001' });
  // Fields the widget flags fail pay() at once, each named with its message.
  await expect(widget.pay()).rejects.toThrow(
    'the widget refused the card form: cardNumber: Invalid card number or brand; expiry: Invalid expiry date; cvv: Invalid CVV; cardHolder: Invalid card holder',
  );
  expect(await widget.card.error('cardNumber')).toBe('Invalid card number or brand');
  await widget.card.fill(cards.success);
  expect(await widget.card.brand()).toBe('VISA');
  await widget.card.fill({ number: cards.mastercard.number });
  expect(await widget.card.brand()).toBe('MASTER');
  await widget.card.fill({ number: cards.success.number });
  await expect.poll(() => widget.card.error('cardNumber')).toBe(undefined);
  await widget.pay();
  await widget.expectResult(cards.success.outcome);
});

/**
 * The shop's checkout without billing.*: an enrolled card's first submission is answered 400
 * naming the billing fields it needs (which Chromium logs), and the widget then asks for them.
 */
async function withoutBilling({
  shop,
  page,
  browserErrors,
}: Pick<Fixtures, 'shop' | 'browserErrors'> & { page: Page }) {
  browserErrors.allow(DECLINE_STATUSES);
  await shop.open({ billing: false });
  return paymentWidget(page);
}

test('card.fill with a billing address: typed when the widget asks for it, then the challenge', async ({
  shop,
  page,
  browserErrors,
}) => {
  const widget = await withoutBilling({ shop, page, browserErrors });
  await widget.card.fill(cards.challenge, {
    street1: 'Hauptstrasse 1',
    city: 'Berlin',
    postcode: '10115',
    country: 'DE',
  });
  // Nothing asked yet: the address waits until the widget asks.
  await expect(widget.card.billing).toHaveCount(0);
  await widget.pay();
  await expect(widget.card.billing.locator('.wpwl-control-city')).toHaveValue('Berlin');
  await widget.challenge.answer();
  await widget.expectResult('000.100.110');
});

test('pay() names the billing fields the widget asks for when card.fill had no address', async ({
  shop,
  page,
  browserErrors,
}) => {
  const widget = await withoutBilling({ shop, page, browserErrors });
  await widget.card.fill(cards.challenge);
  await expect(widget.pay()).rejects.toThrow(
    'the widget refused the card form: street1: Please fill in this field.; city: Please fill in this field.; postcode: Please fill in this field.; country: Please choose a country.',
  );
});

test('a declined card: expectResult reads the decline', async ({ shop, page, browserErrors }) => {
  browserErrors.allow(DECLINE_STATUSES);
  await shop.open();
  const widget = paymentWidget(page);
  await widget.card.fill(cards.declined);
  await widget.pay();
  // The decline is shown on the form; the checkout stays open for another card.
  await expect.poll(() => widget.card.message()).toMatch(/declined/);
  await widget.expectResult(cards.declined.outcome);
});

test('challenge in the modal: fail()', async ({ shop, page }) => {
  await shop.open();
  const widget = paymentWidget(page);
  await widget.card.fill(cards.challenge);
  await widget.pay();
  await widget.challenge.fail();
  await widget.expectResult('800.400.200');
});

test('challenge on the whole page (paymentTarget _top): cancel()', async ({ shop, page, browserErrors }) => {
  browserErrors.allow(FAILED_RESULT_402);
  await shop.open({ preset: 'full-redirect' });
  const widget = paymentWidget(page);
  await widget.card.fill(cards.challenge);
  await widget.pay();
  await widget.challenge.cancel();
  await widget.expectResult('100.396.101');
});

test('challenge on the whole page: answer()', async ({ shop, page }) => {
  await shop.open({ preset: 'full-redirect' });
  const widget = paymentWidget(page);
  await widget.card.fill(cards.challenge);
  await widget.pay();
  await widget.challenge.answer();
  await widget.expectResult('000.100.110');
});

test('provider on the whole page: pay(brand), approve()', async ({ shop, page }) => {
  await shop.open({ brands: 'PAYPAL' });
  const widget = paymentWidget(page);
  await widget.pay('PAYPAL');
  await widget.provider.approve();
  await widget.expectResult(redirectMethods.PAYPAL!.approved);
});

test('provider in the modal (inlineFlow): decline()', async ({ shop, page, browserErrors }) => {
  browserErrors.allow(DECLINE_STATUSES);
  await shop.open({ preset: 'inline', brands: 'VISA KLARNA_PAYMENTS_PAYLATER' });
  const widget = paymentWidget(page);
  await widget.pay('KLARNA_PAYMENTS_PAYLATER');
  await widget.provider.decline();
  await widget.expectResult(redirectMethods.KLARNA_PAYMENTS_PAYLATER!.declined);
});

test('provider in the modal: cancel() brings the shopper back to the forms', async ({ shop, page }) => {
  await shop.open({ preset: 'inline', brands: 'VISA SOFORTUEBERWEISUNG' });
  const widget = paymentWidget(page);
  await widget.pay('SOFORTUEBERWEISUNG');
  await widget.provider.cancel();
  await expect(page.locator('form.wpwl-form-onlineTransfer-SOFORTUEBERWEISUNG .wpwl-message')).toHaveText(
    CANCELLED,
  );
  // The checkout is still open: the card pays it.
  await widget.card.fill(cards.success);
  await widget.pay();
  await widget.expectResult('000.100.110');
});

test('directDebit.fill, then pay()', async ({ shop, page }) => {
  await shop.open({ brands: 'DIRECTDEBIT_SEPA' });
  const widget = paymentWidget(page);
  await widget.directDebit.fill({ holder: 'Jane Jones', iban: ibans.success });
  await widget.pay();
  await widget.expectResult('000.100.110');
});

test('oneClick.choose, then pay()', async ({ shop, page, request, harness }) => {
  const registrationId = await createRegistration(request, harness);
  await shop.open({ registration: registrationId });
  const widget = paymentWidget(page);
  await widget.oneClick.choose(0);
  await expect(page.locator(`input.wpwl-control-registration[value="${registrationId}"]`)).toBeChecked();
  await widget.oneClick.choose(registrationId);
  await widget.pay();
  await widget.expectResult('000.100.110');
});

test('walletSheet.pay with a declined wallet card', async ({ shop, page, browserErrors }) => {
  browserErrors.allow(DECLINE_STATUSES);
  await shop.open({ brands: 'WALLETA', preset: 'walletA-success' });
  const widget = paymentWidget(page);
  await widget.pay('WALLETA');
  await widget.walletSheet.pay({ card: walletCards['visa-declined']! });
  await widget.expectResult(walletCards['visa-declined']!.outcome);
});

test('walletSheet.cancel', async ({ shop, page }) => {
  await shop.open({ brands: 'WALLETA', preset: 'walletA-success' });
  const widget = paymentWidget(page);
  await widget.pay('WALLETA');
  await widget.walletSheet.cancel();
  await expect(page.locator('form.wpwl-form-wallet-WALLETA .wpwl-message')).toHaveText(CANCELLED);
  await widget.expectResult('000.200.000');
});

test('fastCheckout.click a wallet, then walletSheet.pay', async ({ shop, page }) => {
  await shop.openFast({ brands: 'WALLETA' });
  const widget = paymentWidget(page);
  await widget.fastCheckout.click('WALLETA');
  await widget.walletSheet.pay();
  await widget.expectResult('000.100.110');
});

test('fastCheckout.click a redirect wallet: the result found from the return address', async ({
  shop,
  page,
}) => {
  await shop.openFast({ brands: 'WALLETD_CONTINUE' });
  const widget = paymentWidget(page);
  await widget.fastCheckout.click('WALLETD_CONTINUE');
  await widget.provider.approve();
  await widget.expectResult('000.100.110');
});
