/**
 * The widget's modal (`div.wpwl-modal > div.wpwl-modal-dialog[role=dialog]`): a 3-D Secure
 * challenge or an inline redirect flow in `iframe.wpwl-target`, with a close button
 * (`.wpwl-modal-close`) that cancels the flow and returns to the forms.
 */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { ChallengePage } from './ChallengePage';
import { ProviderPage } from './ProviderPage';

export class PaymentModal {
  readonly modal: Locator;
  readonly dialog: Locator;
  readonly title: Locator;
  readonly closeButton: Locator;
  /** The iframe the gateway's (issuer's, provider's) pages load into. */
  readonly frame: Locator;
  readonly content: FrameLocator;

  constructor(readonly page: Page) {
    this.modal = page.locator('div.wpwl-modal');
    this.dialog = this.modal.locator('div.wpwl-modal-dialog');
    this.title = this.dialog.locator('.wpwl-modal-title');
    this.closeButton = this.dialog.locator('button.wpwl-modal-close');
    this.frame = this.dialog.locator('iframe.wpwl-target');
    this.content = this.frame.contentFrame();
  }

  /** The issuer's challenge inside the modal. */
  challenge(): ChallengePage {
    return new ChallengePage(this.content);
  }

  /** A redirect method's provider page inside the modal. */
  provider(): ProviderPage {
    return new ProviderPage(this.content);
  }

  /** Open as an accessible dialog named by its title (the iframe carries the same title). */
  async expectOpen(title: string | RegExp): Promise<void> {
    await expect(this.dialog).toBeVisible();
    await expect(this.dialog).toHaveAttribute('role', 'dialog');
    await expect(this.dialog).toHaveAttribute('aria-modal', 'true');
    await expect(this.title).toHaveText(title);
    await expect(this.frame).toHaveAttribute('title', title);
  }

  async close(): Promise<void> {
    await this.closeButton.click();
  }

  async expectClosed(): Promise<void> {
    await expect(this.modal).toHaveCount(0);
  }
}
