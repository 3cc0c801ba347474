/** Stored registrations offered by the checkout (`form.wpwl-form-registrations`). */
import type { Locator, Page } from '@playwright/test';

export class OneClickForm {
  readonly form: Locator;
  readonly registrations: Locator;
  readonly payButton: Locator;

  constructor(readonly page: Page) {
    this.form = page.locator('form.wpwl-form-registrations');
    this.registrations = this.form.locator('label.wpwl-registration');
    this.payButton = this.form.locator('button.wpwl-button-pay');
  }

  registration(id: string): Locator {
    return this.form.locator(`input.wpwl-control-registration[value="${id}"]`);
  }

  async pay(): Promise<void> {
    await this.payButton.click();
  }
}
