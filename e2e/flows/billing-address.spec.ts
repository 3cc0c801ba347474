/**
 * 3-D Secure in the widget without a billing address from the merchant: the demo channel
 * authenticates shoppers, the shop creates the checkout without billing.* (`billing=0`). The
 * session only hints which fields an enrolled card would need; the card form draws none until the
 * gateway answers the enrolled card's submission naming them, then asks for those, checks them as
 * the gateway does, and the number frame posts them as billing.* with the card. Then the issuer's
 * challenge, and the payment. A page that asks for the address (billingAddress,
 * mandatoryBillingFields) gets it from the start. billing-when-needed.spec.ts: the card that
 * needs no address, and the browser's data.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { BERLIN, BillingAddress } from '../pages/BillingAddress';
import { type Card, TEST_CARD } from '../pages/CardForm';
import { CHALLENGE_CODE } from '../pages/ChallengePage';
import { addPageOptions } from '../pages/PageOptions';
import { seriousViolations } from '../support/axe';
import { expect, test } from '../support/fixtures';
import { SCREENSHOTS, visibleGroups } from '../support/form-groups';
import { checkoutStatus, paymentStatus } from '../support/gateway';

/** Enrolled, challenged: the issuer's page asks for the code. */
const CHALLENGE: Card = { ...TEST_CARD, number: '4200000000000042' };

test('a checkout without billing on a 3-D Secure channel: the enrolled card makes the form ask for the address, then the challenge, then success', async ({
  page,
  shop,
  card,
  modal,
  result,
  request,
  harness,
  browserErrors,
}) => {
  // Two submissions, the challenge and an axe scan: more than the default 30 s on a busy machine.
  test.slow();
  browserErrors.allow(/status of 400 \(Bad Request\).*\/v1\/checkouts\/[^/]+\/payment/);
  const session = page.waitForResponse((r) =>
    /\/v1\/checkouts\/[^/]+\/session$/.test(new URL(r.url()).pathname),
  );
  await shop.open({ billing: false });
  expect(await (await session).json()).toMatchObject({
    authenticationBillingFields: ['street1', 'city', 'postcode', 'country'],
  });
  const checkoutId = await shop.checkoutId();
  await card.ready();
  const billing = new BillingAddress(page);
  // A hint only: nothing is drawn before the gateway asks.
  await expect(billing.group).toHaveCount(0);

  // The enrolled card's submission is answered with what 3-D Secure needs: each field says so.
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
  // Exactly the fields the gateway named, and why.
  expect(await visibleGroups(billing.group)).toEqual([
    'wpwl-group-street1',
    'wpwl-group-city',
    'wpwl-group-postcode',
    'wpwl-group-country',
  ]);
  await expect(card.message).toHaveText(
    'Your card issuer needs your billing address to confirm this payment.',
  );
  await mkdir(SCREENSHOTS, { recursive: true });
  await writeFile(new URL('billing-when-needed-address-asked.png', SCREENSHOTS), await page.screenshot());
  // The card is still there: the shopper types only the address.
  await expect(card.holder).toHaveValue(CHALLENGE.holder);
  await expect(billing.legend).toHaveText('Billing address');
  await expect(billing.label('street1')).toHaveText('Street and house number');
  await expect(billing.control('country')).toHaveJSProperty('tagName', 'SELECT');
  await expect(billing.control('state')).toHaveCount(0);
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

test('billingAddress prefills the form and mandatoryBillingFields makes the state required', async ({
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
});

test('the shop’s default checkout carries billing.*: the enrolled card pays through the challenge, no address asked', async ({
  page,
  shop,
  card,
  modal,
  result,
}) => {
  await shop.open();
  await card.ready();
  const billing = new BillingAddress(page);
  await expect(billing.group).toHaveCount(0);
  await card.fill(CHALLENGE);
  await card.pay();
  await modal.challenge().answer(CHALLENGE_CODE);
  await result.expectOutcome('success', '000.100.110');
  await expect(billing.group).toHaveCount(0);
});

test('in German: the address’s labels, the countries’ names and the messages', async ({
  page,
  shop,
  card,
}) => {
  // The page asks for the address: drawn from the start.
  await addPageOptions(page, { mandatoryBillingFields: { country: true } });
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
