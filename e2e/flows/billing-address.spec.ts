/**
 * 3-D Secure in the widget without a billing address from the merchant: the demo channel
 * authenticates shoppers, the shop creates the checkout without billing.* (`billing=0`), so the
 * session tells the widget which fields 3-D Secure needs; the card form asks for them, checks
 * them as the gateway does, and the number frame posts them as billing.* with the card. Then the
 * issuer's challenge, and the payment.
 */
import { BERLIN, BillingAddress } from '../pages/BillingAddress';
import { type Card, TEST_CARD } from '../pages/CardForm';
import { CHALLENGE_CODE } from '../pages/ChallengePage';
import { addPageOptions } from '../pages/PageOptions';
import { seriousViolations } from '../support/axe';
import { expect, test } from '../support/fixtures';
import { checkoutStatus, paymentStatus } from '../support/gateway';

/** Enrolled, challenged: the issuer's page asks for the code. */
const CHALLENGE: Card = { ...TEST_CARD, number: '4200000000000042' };

test('a checkout without billing on a 3-D Secure channel: the form asks for the address, then the challenge, then success', async ({
  page,
  shop,
  card,
  modal,
  result,
  request,
  harness,
}) => {
  const session = page.waitForResponse((r) =>
    /\/v1\/checkouts\/[^/]+\/session$/.test(new URL(r.url()).pathname),
  );
  await shop.open({ billing: false });
  expect(await (await session).json()).toMatchObject({
    requiredBillingFields: ['street1', 'city', 'postcode', 'country'],
  });
  const checkoutId = await shop.checkoutId();
  await card.ready();
  const billing = new BillingAddress(page);
  await billing.expectShown();
  await expect(billing.legend).toHaveText('Billing address');
  await expect(billing.label('street1')).toHaveText('Street and house number');
  await expect(billing.control('country')).toHaveJSProperty('tagName', 'SELECT');
  await expect(billing.control('state')).toHaveCount(0);

  // Nothing is sent without the address: each field says what is missing.
  await card.fill(CHALLENGE);
  await card.pay();
  await expect(billing.hint('street1')).toHaveText('Please fill in this field.');
  await expect(billing.hint('country')).toHaveText('Please choose a country.');
  await expect(billing.control('street1')).toBeFocused();
  await expect(billing.control('postcode')).toHaveAttribute('aria-invalid', 'true');
  // A postcode the gateway would refuse is flagged before sending.
  await billing.fill({ ...BERLIN, postcode: '10115!' });
  await billing.control('postcode').blur();
  await expect(billing.hint('postcode')).toHaveText('Please enter a valid postcode.');
  expect(await seriousViolations(page, 'form.wpwl-form-card')).toEqual([]);
  await billing.fill(BERLIN);
  await expect(billing.hint('street1')).toHaveCount(0);

  await card.pay();
  await modal.expectOpen('Pay with Visa');
  await modal.challenge().answer(CHALLENGE_CODE);
  await result.expectOutcome('success', '000.100.110');
  const status = await checkoutStatus(request, harness, checkoutId);
  expect(status.result?.code).toBe('000.100.110');
  expect(status.threeDSecure).toMatchObject({ authenticationStatus: 'Y' });
  const payment = (await paymentStatus(request, harness, status.id!)) as { billing?: unknown };
  expect(payment.billing).toMatchObject({
    street1: 'Hauptstrasse 1',
    city: 'Berlin',
    postcode: '10115',
    country: 'DE',
  });
});

test('billingAddress prefills the form and mandatoryBillingFields makes the state required; the checkout with billing asks nothing', async ({
  page,
  shop,
  card,
  modal,
  result,
  request,
  harness,
}) => {
  await addPageOptions(page, {
    billingAddress: { street1: '1 Main St', city: 'New York', postcode: '10001', country: 'US' },
    mandatoryBillingFields: { state: true },
  });
  await shop.open({ billing: false });
  const checkoutId = await shop.checkoutId();
  await card.ready();
  const billing = new BillingAddress(page);
  await expect(billing.control('street1')).toHaveValue('1 Main St');
  await expect(billing.control('city')).toHaveValue('New York');
  await expect(billing.control('postcode')).toHaveValue('10001');
  await expect(billing.control('country')).toHaveValue('US');
  await expect(billing.label('state')).toHaveText('State or region');

  await card.fill(CHALLENGE);
  await card.pay();
  await expect(billing.hint('state')).toHaveText('Please fill in this field.');
  await expect(billing.control('state')).toBeFocused();
  await billing.fill({ state: 'NY' });
  await card.pay();
  await modal.challenge().answer(CHALLENGE_CODE);
  await result.expectOutcome('success', '000.100.110');
  const status = await checkoutStatus(request, harness, checkoutId);
  const payment = (await paymentStatus(request, harness, status.id!)) as { billing?: unknown };
  expect(payment.billing).toMatchObject({
    street1: '1 Main St',
    city: 'New York',
    postcode: '10001',
    country: 'US',
    state: 'NY',
  });

  // The shop's default checkout carries billing.*: no address asked.
  await page.goto(shop.url());
  await card.ready();
  await expect(billing.group).toHaveCount(0);
});

test('in German: the address’s labels, the countries’ names and the messages', async ({
  page,
  shop,
  card,
}) => {
  await shop.open({ billing: false, preset: 'de' });
  await card.ready();
  const billing = new BillingAddress(page);
  await expect(billing.legend).toHaveText('Rechnungsadresse');
  await expect(billing.label('street1')).toHaveText('Straße und Hausnummer');
  await expect(billing.label('postcode')).toHaveText('Postleitzahl');
  await billing.control('country').selectOption('DE');
  await expect(billing.control('country').locator('option:checked')).toHaveText('Deutschland');
  await billing.control('postcode').fill('?');
  await billing.control('postcode').blur();
  await expect(billing.hint('postcode')).toHaveText('Bitte geben Sie eine gültige Postleitzahl ein.');
  await billing.control('country').selectOption('US');
  await expect(billing.label('state')).toHaveText('Bundesland oder Region');
});
