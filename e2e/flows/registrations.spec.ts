/** Stored payment details: one-click payment with a registration, and a registration-only checkout. */
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';
import { createRegistration } from '../support/gateway';

test('one-click payment with a stored registration', async ({ shop, oneClick, result, request, harness }) => {
  const registrationId = await createRegistration(request, harness);
  await shop.open({ registration: registrationId });
  await expect(oneClick.form).toBeVisible();
  await expect(oneClick.registrations).toHaveCount(1);
  await expect(oneClick.registrations).toContainText('•••• 0000');
  // brand and last four digits only: no holder (issue 30)
  await expect(oneClick.registrations).not.toContainText('Jane Jones');
  await expect(oneClick.registration(registrationId)).toBeChecked();
  await oneClick.pay();
  await result.expectOutcome('success', '000.100.110');
});

test('a registration-only checkout stores the card', async ({ shop, card, result }) => {
  await shop.open({ register: true });
  await card.ready();
  await expect(card.payButton).toHaveText('Save payment details');
  await card.fill(TEST_CARD);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  expect(result.page.url()).toContain(encodeURIComponent('/registration'));
});
