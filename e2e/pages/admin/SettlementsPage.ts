/** Settlement and reconciliation files: each row's CSV download. */
import type { Download, Locator, Page } from '@playwright/test';

export class SettlementsPage {
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByRole('table', { name: 'Settlement files' }).locator('tbody tr');
  }

  /** Downloads the first file listed. */
  async downloadFirst(): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.rows
        .first()
        .getByRole('link', { name: /Download CSV/ })
        .click(),
    ]);
    return download;
  }
}
