/** The dashboard's sign-in page (`/admin/`, signed out): fields labelled Username and Password. */
import { expect, type Locator, type Page } from '@playwright/test';

export class SignInPage {
  readonly heading: Locator;
  readonly username: Locator;
  readonly password: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Sign in' });
    this.username = page.getByLabel('Username');
    this.password = page.getByLabel('Password');
    this.submit = page.getByRole('button', { name: 'Sign in' });
  }

  async open(gatewayUrl: string): Promise<void> {
    await this.page.goto(`${gatewayUrl}/admin/`);
    await expect(this.heading).toBeVisible();
  }

  /** Signs in with the keyboard (Enter submits) and waits for the signed-in frame. */
  async signIn(username: string, password: string): Promise<void> {
    await this.username.fill(username);
    await this.password.fill(password);
    await this.password.press('Enter');
    await expect(this.page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  }
}
