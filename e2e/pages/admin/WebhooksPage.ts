/** A merchant's webhooks: register (after the test notification), the list, the delivery log. */
import { expect, type Locator, type Page } from '@playwright/test';

export class WebhooksPage {
  readonly registered: Locator;
  readonly register: Locator;
  readonly log: Locator;

  constructor(readonly page: Page) {
    this.registered = page.getByRole('region', { name: 'Registered webhooks' });
    this.register = page.getByRole('region', { name: 'Register a webhook' });
    this.log = page.getByRole('region', { name: 'Delivery log' });
  }

  /** Registers `url` (the gateway's test notification answered first): the webhook's id. */
  async registerWebhook(url: string): Promise<string> {
    await this.register.getByLabel('Webhook URL').fill(url);
    await this.register.getByRole('button', { name: 'Register webhook' }).click();
    const status = this.register.getByRole('status').first();
    await expect(status).toContainText('registered');
    await expect(this.registered.getByText(url)).toBeVisible();
    return /webhook (\S+) registered/.exec((await status.textContent()) ?? '')?.[1] ?? '';
  }
}
