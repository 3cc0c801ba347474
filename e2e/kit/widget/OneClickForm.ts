/** Stored registrations offered by the checkout (`form.wpwl-form-registrations`). */
import type { Locator, Page } from '@playwright/test';

export class OneClickForm {
  readonly form: Locator;
  readonly registrations: Locator;
  /** The stored card's CVV: a gateway frame, drawn when the page or the card's channel asks for it. */
  readonly cvvFrame: Locator;
  readonly payButton: Locator;

  constructor(readonly page: Page) {
    this.form = page.locator('form.wpwl-form-registrations');
    this.registrations = this.form.locator('label.wpwl-registration');
    this.cvvFrame = this.form.locator(
      '.wpwl-wrapper-registration-cvv iframe.wpwl-control-iframe.wpwl-control-cvv',
    );
    this.payButton = this.form.locator('button.wpwl-button-pay');
  }

  registration(id: string): Locator {
    return this.form.locator(`input.wpwl-control-registration[value="${id}"]`);
  }

  /** The input inside the CVV frame (the gateway's document: the shop page never sees it). */
  cvvInput(): Locator {
    return this.cvvFrame.contentFrame().locator('input#field');
  }

  /** Types the stored card's CVV key by key, as a shopper does, once the frame is ready. */
  async fillCvv(cvv: string): Promise<void> {
    const input = this.cvvInput();
    await input.fill('');
    await input.pressSequentially(cvv);
  }

  async pay(): Promise<void> {
    await this.payButton.click();
  }
}
