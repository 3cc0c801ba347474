/** The payments list: the search form and the table of results. */
import { expect, type Locator, type Page } from '@playwright/test';

export class PaymentsPage {
  readonly form: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole('form', { name: 'Search payments' });
    this.rows = page.getByRole('table', { name: /Payments/ }).locator('tbody tr');
  }

  async searchByMerchantTransactionId(id: string): Promise<void> {
    await this.form.getByLabel('Merchant transaction id').fill(id);
    await this.form.getByRole('button', { name: 'Search' }).click();
    await expect(this.page).toHaveURL(new RegExp(`merchantTransactionId=${id}`));
  }

  /** Opens the one payment the search found. */
  async openOnly(): Promise<string> {
    await expect(this.rows).toHaveCount(1);
    const link = this.rows.first().getByRole('link');
    const id = (await link.textContent())!.trim();
    await link.click();
    return id;
  }
}
