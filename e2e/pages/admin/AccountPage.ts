/** The signed-in user's account: change the password, set up an authenticator (TOTP). */
import { expect, type Locator, type Page } from '@playwright/test';

export class AccountPage {
  readonly password: Locator;
  readonly totp: Locator;

  constructor(readonly page: Page) {
    this.password = page.getByRole('region', { name: 'Change password' });
    this.totp = page.getByRole('region', { name: 'Two-step sign-in (TOTP)' });
  }

  async changePassword(current: string, next: string): Promise<void> {
    await this.password.getByLabel('Current password').fill(current);
    await this.password.getByLabel('New password').fill(next);
    await this.password.getByRole('button', { name: 'Change password' }).click();
  }

  /** Starts the set-up (the current password confirms it) and answers the key the page shows. */
  async startTotp(password: string): Promise<string> {
    await this.totp.getByLabel('Current password').fill(password);
    await this.totp.getByRole('button', { name: 'Set up an authenticator' }).click();
    const key = this.totp.locator('code.secret');
    await expect(key).toBeVisible();
    return (await key.textContent())!.trim();
  }

  async confirmTotp(code: string): Promise<void> {
    await this.totp.getByLabel('Code from the app').fill(code);
    await this.totp.getByRole('button', { name: 'Confirm' }).click();
    await expect(this.totp.getByRole('status')).toContainText('An authenticator app is set up');
  }
}
