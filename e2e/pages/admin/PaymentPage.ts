/** A payment's page: its story (linked transactions, deliveries …) and the back office's actions. */
import { expect, type Locator, type Page } from '@playwright/test';

export class PaymentPage {
  readonly refundButton: Locator;
  readonly related: Locator;
  readonly deliveries: Locator;
  readonly backOffice: Locator;

  constructor(readonly page: Page) {
    this.backOffice = page.getByRole('region', { name: 'Back office' });
    this.refundButton = this.backOffice.getByRole('button', { name: 'Refund' });
    this.related = page.getByRole('region', { name: 'Linked transactions' }).locator('tbody tr');
    this.deliveries = page.getByRole('region', { name: 'Webhook deliveries' }).locator('tbody tr');
  }

  /** The confirmation dialog of an action (titled `<label>?`). */
  dialog(label: string): Locator {
    return this.page.getByRole('dialog', { name: `${label}?` });
  }

  /**
   * Opens a money action's confirmation (`Refund`, `Capture`, `Reverse`, `Book a chargeback`): its
   * amount field is prefilled with what remains for it (the server's count).
   */
  async open(label: string): Promise<Locator> {
    await this.backOffice.getByRole('button', { name: `${label} payment` }).click();
    const dialog = this.dialog(label);
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /** Opens the refund's confirmation: its amount field (prefilled with what remains refundable). */
  async openRefund(): Promise<Locator> {
    return this.open('Refund');
  }

  /** Does `label` for `amount` (a decimal string), confirmed, and waits for the gateway's answer. */
  async act(label: string, amount: string): Promise<void> {
    const dialog = await this.open(label);
    await dialog.getByLabel(/^Amount/).fill(amount);
    await dialog.getByRole('button', { name: label, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(this.backOffice.getByRole('status')).toContainText(label);
  }

  /** Refunds `amount` (a decimal string), confirmed, and waits for the gateway's answer. */
  async refund(amount: string): Promise<void> {
    await this.act('Refund', amount);
  }
}
