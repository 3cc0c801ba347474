/**
 * The dashboard's home page (`/admin/#/`, where signing in lands): the day's figures, a merchant
 * user's own merchant's or, for an operator, every merchant's or the one picked; each chart with
 * its table; the links to the merchant's page and the day's payments.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { AdminShell } from './AdminShell';

export const HOME_HEADING = "Today's figures";

export class HomePage {
  readonly merchant: Locator;
  readonly brands: Locator;
  readonly next: Locator;

  constructor(readonly page: Page) {
    this.merchant = page.getByRole('form', { name: 'Which figures' }).getByLabel('Merchant');
    this.brands = page.getByRole('table', { name: 'By brand' });
    this.next = page.getByRole('navigation', { name: 'From these figures' });
  }

  /** The page, once its figures are shown (signing in lands here). */
  async expectShown(): Promise<void> {
    await new AdminShell(this.page).expectPage(HOME_HEADING);
  }

  /** A chart (a figure named like its table), e.g. `Volume per hour, EUR`. */
  chart(name: string): Locator {
    return this.page.getByRole('figure', { name });
  }

  /** An operator's pick: one merchant's figures (by its id), kept in the location, its page one click away. */
  async pick(merchantId: string): Promise<void> {
    await this.merchant.selectOption(merchantId);
    await expect(this.page).toHaveURL(new RegExp(`#/\\?(.*&)?merchantId=${merchantId}`));
    await expect(this.next.getByRole('link', { name: /^Merchant / })).toHaveAttribute(
      'href',
      `#/merchants/${merchantId}`,
    );
  }
}
