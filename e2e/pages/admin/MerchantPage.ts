/** A merchant's page: its channels (operators create them) and its access tokens. */
import { expect, type Locator, type Page } from '@playwright/test';

export class MerchantPage {
  readonly channels: Locator;
  readonly tokens: Locator;

  constructor(readonly page: Page) {
    this.channels = page.getByRole('region', { name: 'Channels' });
    this.tokens = page.getByRole('region', { name: 'Access tokens' });
  }

  /** Creates an access token for the test environment: its id and the token (shown once). */
  async createToken(): Promise<{ id: string; accessToken: string }> {
    await this.tokens.getByLabel('Environment').selectOption('test');
    await this.tokens.getByRole('button', { name: 'Create access token' }).click();
    const secret = this.tokens.getByRole('status').locator('output');
    await expect(secret).toBeVisible();
    const created = this.tokens.getByRole('status').filter({ hasText: /^Access token \S+ created\.$/ });
    const id = /^Access token (\S+) created\.$/.exec((await created.textContent()) ?? '')?.[1] ?? '';
    return { id, accessToken: (await secret.textContent())!.trim() };
  }

  /** The row of a token in the list. */
  tokenRow(id: string): Locator {
    return this.tokens.getByRole('row').filter({ hasText: id });
  }

  /** Creates a test channel and answers its entityId. */
  async createChannel(name: string, brands: string): Promise<string> {
    await this.channels.getByLabel('Channel name').fill(name);
    await this.channels.getByLabel('Brands').fill(brands);
    await this.channels.getByLabel('3-D Secure').check();
    await this.channels.getByRole('button', { name: 'Create channel' }).click();
    const status = this.channels.getByRole('status');
    await expect(status).toContainText('entityId');
    const entityId = /entityId (\S+)\./.exec((await status.textContent()) ?? '')?.[1];
    if (entityId === undefined) throw new Error('no entityId in the answer');
    await expect(this.channels.getByRole('table').getByText(entityId)).toBeVisible();
    return entityId;
  }
}
