/**
 * The simulated wallet sheet (widget/frames/wallet-sheet.html, the gateway's origin) inside the
 * widget's modal (`iframe.wpwl-target.wpwl-sheet`): the wallet's title, the merchant, the order's
 * items and total, the test cards, the billing address, Pay and Cancel, and its message.
 */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';

export interface BillingAddress {
  readonly name: string;
  readonly postcode: string;
  /** The country's name as the sheet lists it (English: "Germany"). */
  readonly country: string;
}

export const JANE: BillingAddress = { name: 'Jane Jones', postcode: '10115', country: 'Germany' };

export class WalletSheet {
  readonly frame: Locator;
  readonly content: FrameLocator;
  readonly heading: Locator;
  readonly merchant: Locator;
  readonly items: Locator;
  readonly total: Locator;
  readonly payButton: Locator;
  readonly cancelButton: Locator;
  readonly message: Locator;

  constructor(readonly page: Page) {
    this.frame = page.locator('div.wpwl-modal iframe.wpwl-sheet');
    this.content = this.frame.contentFrame();
    this.heading = this.content.locator('h1');
    this.merchant = this.content.locator('.merchant');
    this.items = this.content.locator('.items .item');
    this.total = this.content.locator('.total strong');
    this.payButton = this.content.locator('button.pay');
    this.cancelButton = this.content.getByRole('button', { name: 'Cancel' });
    this.message = this.content.locator('.message');
  }

  /** The sheet has started (init from the widget) and listed the test cards. */
  async expectShown(title = 'Wallet A (simulated)'): Promise<void> {
    await expect(this.heading).toHaveText(title);
    await expect(this.content.getByRole('radio').first()).toBeVisible();
  }

  card(label: string | RegExp): Locator {
    return this.content.getByRole('radio', { name: label });
  }

  field(label: string): Locator {
    return this.content.getByLabel(label, { exact: true });
  }

  async fillBilling(address: BillingAddress): Promise<void> {
    await this.field('Full name').fill(address.name);
    await this.field('Postcode').fill(address.postcode);
    await this.field('Country').selectOption({ label: address.country });
  }

  async pay(): Promise<void> {
    await this.payButton.click();
  }

  /**
   * Cancel closes the sheet: the widget removes the sheet's own frame while the click is still
   * being acknowledged, and Chromium can leave a click in a cross-site frame removed mid-action
   * unanswered (seen once in CI: the payment cancelled, the click waiting until the test's
   * timeout). The sheet gone is what the click is for, so whichever comes first ends it.
   */
  async cancel(): Promise<void> {
    const clicked = this.cancelButton.click().catch(() => undefined); // its frame may go first
    const gone = this.frame.waitFor({ state: 'detached' }).catch(() => undefined);
    await Promise.race([clicked, gone]);
    await expect(this.frame).toHaveCount(0);
  }
}
