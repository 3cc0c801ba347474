/**
 * The card form (`form.wpwl-form-card`): number and CVV are inputs inside gateway-origin frames
 * (`iframe.wpwl-control-iframe`), expiry and holder are the page's own inputs.
 */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { type Card, cards } from '../kit/cards';
import type { CardField } from '../kit/widget/card';

export type { Card, CardField };

/** The family's standard test card (facts §6.2): succeeds with 000.100.110 (the kit's `cards.success`). */
export const TEST_CARD: Card = cards.success;

export class CardForm {
  readonly form: Locator;
  readonly numberFrame: Locator;
  readonly cvvFrame: Locator;
  readonly expiry: Locator;
  readonly holder: Locator;
  readonly payButton: Locator;
  /** The form's own message (declines, technical errors). */
  readonly message: Locator;
  /** The brand indicator at the end of the number field (`wpwl-brand-<BRAND>`). */
  readonly brand: Locator;
  /** The detected brand's logo in the indicator (`img.wpwl-logo`, named by its alt text). */
  readonly logo: Locator;

  constructor(readonly page: Page) {
    this.form = page.locator('form.wpwl-form-card');
    this.numberFrame = this.form.locator('iframe.wpwl-control-iframe.wpwl-control-cardNumber');
    this.cvvFrame = this.form.locator('iframe.wpwl-control-iframe.wpwl-control-cvv');
    this.expiry = this.form.locator('input.wpwl-control-expiry');
    this.holder = this.form.locator('input.wpwl-control-cardHolder');
    this.payButton = this.form.locator('button.wpwl-button-pay');
    this.message = this.form.locator('.wpwl-message');
    this.brand = this.form.locator('.wpwl-wrapper-cardNumber .wpwl-brand-card');
    this.logo = this.brand.locator('img.wpwl-logo');
  }

  private frame(field: 'cardNumber' | 'cvv'): FrameLocator {
    return (field === 'cardNumber' ? this.numberFrame : this.cvvFrame).contentFrame();
  }

  /** The input inside a card-field frame. */
  frameInput(field: 'cardNumber' | 'cvv'): Locator {
    return this.frame(field).locator('input#field');
  }

  /** Waits until the indicator shows `name`'s logo (`alt`), loaded from the gateway. */
  async expectLogo(name: string): Promise<void> {
    await expect(this.brand.getByRole('img', { name, exact: true })).toBeVisible();
    await expect
      .poll(() => this.logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  }

  /** Waits until both frames have been initialised by the host (their inputs are enabled). */
  async ready(): Promise<void> {
    await expect(this.form).toBeVisible();
    await expect(this.frameInput('cardNumber')).toBeEnabled();
    await expect(this.frameInput('cvv')).toBeEnabled();
  }

  /** Types the number as a shopper does, key by key (the frame formats as it goes). */
  async fillNumber(number: string): Promise<void> {
    const input = this.frameInput('cardNumber');
    await input.fill('');
    await input.pressSequentially(number);
  }

  async fillExpiry(expiry: string): Promise<void> {
    await this.expiry.fill('');
    await this.expiry.pressSequentially(expiry);
  }

  async fillHolder(holder: string): Promise<void> {
    await this.holder.fill(holder);
  }

  async fillCvv(cvv: string): Promise<void> {
    const input = this.frameInput('cvv');
    await input.fill('');
    await input.pressSequentially(cvv);
  }

  async fill(card: Card): Promise<void> {
    await this.fillNumber(card.number);
    await this.fillExpiry(card.expiry);
    await this.fillCvv(card.cvv);
    await this.fillHolder(card.holder);
  }

  async pay(): Promise<void> {
    await this.payButton.click();
  }

  /** Leaves the field the focus is in (the widget checks a field when the shopper leaves it). */
  async blur(): Promise<void> {
    await this.page.locator('h1').click();
  }

  /** The element that carries `wpwl-has-error` for a field: the frame for number and CVV. */
  control(field: CardField): Locator {
    switch (field) {
      case 'cardNumber':
        return this.numberFrame;
      case 'cvv':
        return this.cvvFrame;
      case 'expiry':
        return this.expiry;
      case 'cardHolder':
        return this.holder;
    }
  }

  hint(field: CardField): Locator {
    return this.form.locator(`.wpwl-wrapper-${field} .wpwl-hint`);
  }

  label(field: CardField): Locator {
    return this.form.locator(`.wpwl-label-${field}`);
  }
}
