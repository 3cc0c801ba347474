/** SEPA direct debit (DIRECTDEBIT_SEPA): holder and IBAN, posted by the page (no card data). */
import { expect, test } from '../support/fixtures';

test('a SEPA direct debit succeeds', async ({ shop, directDebit, result }) => {
  await shop.open({ brands: 'DIRECTDEBIT_SEPA' });
  await expect(directDebit.form).toBeVisible();
  await expect(shop.page.locator('form.wpwl-form-card')).toHaveCount(0);
  await directDebit.fillHolder('Jane Jones');
  await directDebit.fillIban('DE23100000001234567890');
  await expect(directDebit.iban).toHaveValue('DE23 1000 0000 1234 5678 90');
  await directDebit.pay();
  await result.expectOutcome('success', '000.100.110');
});

test('an IBAN with a wrong checksum is flagged before anything is sent', async ({ shop, directDebit }) => {
  await shop.open({ brands: 'DIRECTDEBIT_SEPA' });
  await directDebit.fillHolder('Jane Jones');
  await directDebit.fillIban('DE24100000001234567890');
  await directDebit.pay();
  await expect(directDebit.iban).toHaveClass(/\bwpwl-has-error\b/);
  await expect(directDebit.form.locator('.wpwl-hint')).toHaveText('Invalid IBAN');
});
