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

  /** Refunds `amount` (a decimal string) and waits for the gateway's answer. */
  async refund(amount: string): Promise<void> {
    await this.backOffice.getByLabel(/Refund amount/).fill(amount);
    await this.refundButton.click();
    await expect(this.backOffice.getByRole('status')).toContainText('Refund');
  }
}
