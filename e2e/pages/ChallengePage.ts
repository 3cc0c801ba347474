/**
 * The simulated issuer's 3-D Secure challenge (server/processors/simulator/pages.ts): a one-time code
 * (`#sim-otp`, the test code is 1234) and three answers, Confirm, Fail authentication and Cancel.
 * The same page is shown inside the widget's modal (root: the modal's frame) or as the whole page
 * after a full redirect (root: the page).
 */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';

/** The simulator's one code that authenticates (CHALLENGE_CODE). */
export const CHALLENGE_CODE = '1234';

export class ChallengePage {
  readonly heading: Locator;
  readonly otp: Locator;
  readonly confirmButton: Locator;
  readonly failButton: Locator;
  readonly cancelButton: Locator;

  constructor(readonly root: Page | FrameLocator) {
    this.heading = root.locator('h1#sim-title');
    this.otp = root.locator('input#sim-otp');
    this.confirmButton = root.getByRole('button', { name: 'Confirm' });
    this.failButton = root.getByRole('button', { name: 'Fail authentication' });
    this.cancelButton = root.getByRole('button', { name: 'Cancel' });
  }

  async expectShown(): Promise<void> {
    await expect(this.heading).toHaveText('Confirm it is you');
    await expect(this.otp).toBeEditable();
  }

  /** Types the code and confirms (Confirm posts action=submit). */
  async answer(code: string): Promise<void> {
    await this.otp.fill(code);
    await this.confirmButton.click();
  }
}
