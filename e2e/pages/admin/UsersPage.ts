/** Users: the list and the form creating one. */
import { expect, type Page } from '@playwright/test';

export class UsersPage {
  constructor(readonly page: Page) {}

  async create(user: {
    username: string;
    role: string;
    merchantId?: string;
    password: string;
  }): Promise<void> {
    const form = this.page.getByRole('region', { name: 'Create a user' });
    await form.getByLabel("New user's username").fill(user.username);
    await form.getByLabel('Role').selectOption(user.role);
    if (user.merchantId !== undefined) await form.getByLabel('Merchant id').fill(user.merchantId);
    await form.getByLabel('Initial password').fill(user.password);
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect(form.getByRole('status')).toContainText(`User ${user.username} created`);
    await expect(
      this.page.getByRole('table', { name: 'Users' }).getByRole('cell', { name: user.username, exact: true }),
    ).toBeVisible();
  }
}
