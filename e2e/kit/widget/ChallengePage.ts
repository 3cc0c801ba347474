/**
 * The simulated issuer's 3-D Secure challenge (server/http/routes/simulators/pages.ts): a one-time code
 * (`#sim-otp`, the test code is 1234) and three answers, Confirm, Fail authentication and Cancel.
 * The same page is shown inside the widget's modal (root: the modal's frame) or as the whole page
 * after a full redirect (root: the page).
 */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { CHALLENGE_CODE } from '../cards';

export { CHALLENGE_CODE };

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

  /** Types the code (the simulator's by default) and confirms (Confirm posts action=submit). */
  async answer(code: string = CHALLENGE_CODE): Promise<void> {
    await this.otp.fill(code);
    await this.confirmButton.click();
  }

  /** "Fail authentication": the payment ends with 800.400.200. */
  async fail(): Promise<void> {
    await this.failButton.click();
  }

  /** "Cancel": the payment ends with 100.396.101. */
  async cancel(): Promise<void> {
    await this.cancelButton.click();
  }
}
