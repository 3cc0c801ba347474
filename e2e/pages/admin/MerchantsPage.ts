/** The operator's merchants: the list and the form creating one. */
import { expect, type Page } from '@playwright/test';

export class MerchantsPage {
  constructor(readonly page: Page) {}

  async create(name: string): Promise<void> {
    await this.page.getByLabel('Merchant name').fill(name);
    await this.page.getByRole('button', { name: 'Create merchant' }).click();
    await expect(this.page.getByRole('status')).toContainText(`Merchant ${name} created`);
  }

  async open(name: string): Promise<void> {
    await this.page.getByRole('table').getByRole('link', { name }).click();
  }
}
