/** The shop's result page: it GETs `{gateway}{resourcePath}` and shows the verdict and code. */
import { expect, type Locator, type Page } from '@playwright/test';

export type Verdict = 'success' | 'failed' | 'pending';

/**
 * The result page of a failed payment answers HTTP 402, which Chromium logs as a console error;
 * flows that end there allow it (`browserErrors.allow(FAILED_RESULT_402)`).
 */
export const FAILED_RESULT_402 = /Failed to load resource: the server responded with a status of 402/;

export class ResultPage {
  readonly heading: Locator;
  readonly code: Locator;
  readonly description: Locator;
  readonly paymentId: Locator;
  readonly registrationId: Locator;

  constructor(readonly page: Page) {
    this.heading = page.locator('h1.shop-result');
    this.code = page.locator('.shop-result-code');
    this.description = page.locator('.shop-result-description');
    this.paymentId = page.locator('.shop-payment-id');
    this.registrationId = page.locator('.shop-registration-id');
  }

  /** Waits for the navigation to the result page and checks verdict and result code. */
  async expectOutcome(verdict: Verdict, code: string | RegExp): Promise<void> {
    await this.page.waitForURL(/\/result\?/);
    await expect(this.heading).toHaveClass(new RegExp(`\\bshop-result-${verdict}\\b`));
    await expect(this.code).toHaveText(code);
  }
}
