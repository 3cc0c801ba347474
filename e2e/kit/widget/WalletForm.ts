/**
 * A wallet's form (`form.wpwl-form-wallet-<BRAND>`, WALLETA, WALLETB, WALLETC): one button,
 * "Pay with Wallet A", that opens the simulated wallet sheet in the widget's modal.
 */
import type { Locator, Page } from '@playwright/test';

export class WalletForm {
  constructor(readonly page: Page) {}

  form(brand: string): Locator {
    return this.page.locator(`form.wpwl-form-wallet-${brand}`);
  }

  button(brand: string): Locator {
    return this.form(brand).locator(`button.wpwl-button-brand.wpwl-brand-${brand}`);
  }

  /** The form's own message (createCheckout failed, cancelled, declined). */
  message(brand: string): Locator {
    return this.form(brand).locator('.wpwl-message');
  }

  async pay(brand: string): Promise<void> {
    await this.button(brand).click();
  }
}
