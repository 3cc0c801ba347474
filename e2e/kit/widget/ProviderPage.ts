/**
 * A redirect method's provider page (server/http/routes/simulators/pages.ts): the method's title (e.g. "PayPal"),
 * and Approve, Decline and Cancel. Shown as the whole page (a full redirect) or inside the widget's
 * modal (a brand listed in `inlineFlow`).
 */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';

export class ProviderPage {
  readonly heading: Locator;
  readonly approveButton: Locator;
  readonly declineButton: Locator;
  readonly cancelButton: Locator;

  constructor(readonly root: Page | FrameLocator) {
    this.heading = root.locator('h1#sim-title');
    this.approveButton = root.getByRole('button', { name: 'Approve' });
    this.declineButton = root.getByRole('button', { name: 'Decline' });
    this.cancelButton = root.getByRole('button', { name: 'Cancel' });
  }

  async expectShown(): Promise<void> {
    await expect(this.heading).toBeVisible();
    await expect(this.approveButton).toBeEnabled();
  }

  async approve(): Promise<void> {
    await this.approveButton.click();
  }

  async decline(): Promise<void> {
    await this.declineButton.click();
  }

  async cancel(): Promise<void> {
    await this.cancelButton.click();
  }
}
