/**
 * One-click on a channel that asks for a stored card's CVV (issue 30): the widget shows the stored
 * card's brand and last four digits only, asks for the CVV in the gateway's frame (the shop page
 * never holds it), refuses to pay without it, and pays with it; the shop's result page says so.
 * The QA kit's `oneClick.choose(id, { cvv })` does the same for a shop's own tests.
 */

import type { APIRequestContext } from '@playwright/test';
import { paymentWidget } from '../kit';
import { TEST_CARD } from '../pages/CardForm';
import { expect, type Fixtures, test } from '../support/fixtures';
import { checkoutStatus, createRegistration } from '../support/gateway';

/** A card stored on the channel that asks for its CVV, and the shop's checkout offering it. */
async function openWithStoredCard({
  shop,
  request,
  harness,
}: Pick<Fixtures, 'shop' | 'harness'> & { request: APIRequestContext }) {
  const channel = harness.channels.storedCardCvv;
  const registrationId = await createRegistration(request, channel);
  await shop.at(channel.shopUrl).open({ registration: registrationId });
  return { channel, registrationId };
}

test('a stored card on a channel that asks for its CVV: brand and last four shown, CVV asked, paid', async ({
  shop,
  oneClick,
  result,
  page,
  request,
  harness,
}) => {
  const { channel, registrationId } = await openWithStoredCard({ shop, request, harness });
  await expect(oneClick.registrations).toHaveCount(1);
  const stored = oneClick.registrations.first();
  await expect(stored).toContainText('•••• 0000');
  await expect(stored.locator('img.wpwl-logo-VISA')).toBeVisible();
  // neither the holder nor the expiry: the session read without credentials does not carry them
  await expect(stored).not.toContainText(TEST_CARD.holder);
  await expect(stored).not.toContainText(TEST_CARD.expiry);
  expect(await page.content()).not.toContain(TEST_CARD.holder);
  await expect(oneClick.registration(registrationId)).toBeChecked();

  // Asked for: the CVV frame is there, and an empty CVV is flagged without anything sent.
  await expect(oneClick.cvvFrame).toBeVisible();
  await expect(oneClick.cvvInput()).toBeEnabled();
  await oneClick.pay();
  await expect(oneClick.form.locator('.wpwl-group-registration-cvv .wpwl-has-error')).toBeVisible();
  const checkoutId = await page.evaluate(
    () => (window as { wpwl?: { checkout?: { id?: string } } }).wpwl?.checkout?.id,
  );
  expect(checkoutId).toBeTruthy();
  expect((await checkoutStatus(request, channel, checkoutId!)).result?.code).toBe('000.200.000');

  await oneClick.fillCvv(TEST_CARD.cvv);
  // the page holds no CVV: it lives in the gateway's frame
  expect(
    await page
      .locator('form.wpwl-form-registrations input')
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
  ).not.toContain(TEST_CARD.cvv);
  await oneClick.pay();
  await result.expectOutcome('success', '000.100.110');
  const paid = await checkoutStatus(request, channel, checkoutId!);
  expect(paid.result?.code).toBe('000.100.110');
  expect(paid.paymentBrand).toBe('VISA');
});

test("the QA kit's oneClick.choose types the stored card's CVV, then pay() pays it", async ({
  shop,
  page,
  request,
  harness,
}) => {
  const { registrationId } = await openWithStoredCard({ shop, request, harness });
  const widget = paymentWidget(page);
  await widget.oneClick.choose(registrationId, { cvv: TEST_CARD.cvv });
  await widget.pay();
  await widget.expectResult('000.100.110');
});
