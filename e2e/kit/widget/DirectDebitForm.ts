/** The SEPA direct debit form (`form.wpwl-form-directDebit`): account holder and IBAN. */
import type { Locator, Page } from '@playwright/test';

export class DirectDebitForm {
  readonly form: Locator;
  readonly holder: Locator;
  readonly iban: Locator;
  readonly payButton: Locator;

  constructor(readonly page: Page) {
    this.form = page.locator('form.wpwl-form-directDebit');
    this.holder = this.form.locator('input.wpwl-control-accountHolder');
    this.iban = this.form.locator('input.wpwl-control-iban');
    this.payButton = this.form.locator('button.wpwl-button-pay');
  }

  async fillHolder(holder: string): Promise<void> {
    await this.holder.fill(holder);
  }

  async fillIban(iban: string): Promise<void> {
    await this.iban.fill(iban);
  }

  async pay(): Promise<void> {
    await this.payButton.click();
  }
}
