/**
 * Inline field errors: a field is checked when the shopper leaves it and on submit; an invalid
 * control gets `wpwl-has-error`, `aria-invalid` and `aria-describedby` pointing at its
 * `wpwl-hint` (inside the frames too), and the error goes as soon as the value is fixed.
 */
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';

test('an invalid number, a past expiry and a short CVV are flagged inline', async ({ shop, card }) => {
  await shop.open();
  await card.ready();

  // 4200000000000001 fails Luhn.
  await card.fillNumber('4200000000000001');
  await card.blur();
  await expect(card.control('cardNumber')).toHaveClass(/\bwpwl-has-error\b/);
  await expect(card.hint('cardNumber')).toHaveText('Invalid card number or brand');
  await expect(card.frameInput('cardNumber')).toHaveAttribute('aria-invalid', 'true');
  const numberHint = await card.hint('cardNumber').getAttribute('id');
  await expect(card.numberFrame).toHaveAttribute('aria-describedby', numberHint!);

  await card.fillExpiry('01/20');
  await card.blur();
  await expect(card.expiry).toHaveValue('01 / 20');
  await expect(card.control('expiry')).toHaveClass(/\bwpwl-has-error\b/);
  await expect(card.hint('expiry')).toHaveText('The card has expired');
  await expect(card.expiry).toHaveAttribute('aria-invalid', 'true');
  const expiryHint = await card.hint('expiry').getAttribute('id');
  await expect(card.expiry).toHaveAttribute('aria-describedby', expiryHint!);

  await card.fillCvv('12');
  await card.blur();
  await expect(card.control('cvv')).toHaveClass(/\bwpwl-has-error\b/);
  await expect(card.hint('cvv')).toHaveText('Invalid CVV');
  await expect(card.frameInput('cvv')).toHaveAttribute('aria-invalid', 'true');

  // Fixed values clear their errors without another blur.
  await card.fillNumber(TEST_CARD.number);
  await expect(card.control('cardNumber')).not.toHaveClass(/wpwl-has-error/);
  await expect(card.hint('cardNumber')).toHaveCount(0);
  await expect(card.frameInput('cardNumber')).toHaveAttribute('aria-invalid', 'false');
  await card.fillExpiry(TEST_CARD.expiry);
  await expect(card.control('expiry')).not.toHaveClass(/wpwl-has-error/);
  await expect(card.expiry).toHaveAttribute('aria-invalid', 'false');
  await card.fillCvv(TEST_CARD.cvv);
  await expect(card.control('cvv')).not.toHaveClass(/wpwl-has-error/);
  await expect(card.hint('cvv')).toHaveCount(0);
});

test('paying an empty form flags every field and focuses the first', async ({ shop, card, page }) => {
  await shop.open();
  await card.ready();
  const shopUrl = page.url();
  await card.pay();
  for (const field of ['cardNumber', 'expiry', 'cvv', 'cardHolder'] as const) {
    await expect(card.control(field)).toHaveClass(/\bwpwl-has-error\b/);
    await expect(card.hint(field)).toBeVisible();
  }
  await expect(card.hint('expiry')).toHaveText('Invalid expiry date');
  await expect(card.hint('cardHolder')).toHaveText('Invalid card holder');
  await expect(card.holder).toHaveAttribute('aria-invalid', 'true');
  await expect(card.frameInput('cardNumber')).toBeFocused();
  expect(page.url()).toBe(shopUrl);
});
