/**
 * A redirect brand's form (`form.wpwl-form-onlineTransfer-<BRAND>`): one button, "Pay with <brand>",
 * that posts the brand; the gateway answers with a redirect to the provider's page.
 */
import type { Locator, Page } from '@playwright/test';

export class RedirectForm {
  constructor(readonly page: Page) {}

  form(brand: string): Locator {
    return this.page.locator(`form.wpwl-form-onlineTransfer-${brand}`);
  }

  button(brand: string): Locator {
    return this.form(brand).locator('button.wpwl-button-pay');
  }

  /** The form's own message (cancelled, declined). */
  message(brand: string): Locator {
    return this.form(brand).locator('.wpwl-message');
  }

  async pay(brand: string): Promise<void> {
    await this.button(brand).click();
  }
}
