/**
 * The signed-in dashboard's frame: the main navigation, Sign out, the page's heading; and the
 * checks every page gets (axe: no serious or critical violation; a screenshot at 1280 and 390 px).
 */
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';
import { seriousViolations } from '../../support/axe';

const SCREENSHOTS = fileURLToPath(new URL('../../screenshots/', import.meta.url));

export class AdminShell {
  readonly nav: Locator;
  readonly heading: Locator;
  readonly signOutButton: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.heading = page.getByRole('heading', { level: 1 });
    this.signOutButton = page.getByRole('button', { name: 'Sign out' });
  }

  /** Follows a main navigation link and waits for the page's heading (which takes the focus). */
  async go(link: string, heading: string | RegExp): Promise<void> {
    await this.nav.getByRole('link', { name: link, exact: true }).click();
    await this.expectPage(heading);
  }

  async expectPage(heading: string | RegExp): Promise<void> {
    await expect(this.heading).toHaveText(heading);
    await expect(this.heading).toBeFocused();
    await expect(this.page.getByText('Loading…')).toHaveCount(0);
  }

  /** axe on the whole page: the serious and critical violations, expected none. */
  async expectAccessible(): Promise<void> {
    expect(await seriousViolations(this.page, 'body')).toEqual([]);
  }

  /**
   * Screenshots at 1280 and 390 px (e2e/screenshots/admin-<name>-<width>.png): no horizontal
   * scrolling of the page (wide tables scroll in their own focusable region), axe at each width.
   */
  async screenshots(name: string): Promise<void> {
    const before = this.page.viewportSize() ?? { width: 1280, height: 800 };
    for (const width of [1280, 390]) {
      await this.page.setViewportSize({ width, height: 800 });
      const scrollWidth = await this.page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `no horizontal scrolling at ${width} px`).toBeLessThanOrEqual(width);
      await this.expectAccessible();
      await this.page.screenshot({ path: `${SCREENSHOTS}admin-${name}-${width}.png`, fullPage: true });
    }
    await this.page.setViewportSize(before);
  }

  /** Confirms the open dialog titled `<title>?` with its button `button`; waits for it to close. */
  async confirm(title: string, button = title): Promise<void> {
    const dialog = this.page.getByRole('dialog', { name: `${title}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: button, exact: true }).click();
    await expect(dialog).toBeHidden();
  }

  async signOut(): Promise<void> {
    await this.signOutButton.click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  }

  /** The session's CSRF token, as the dashboard gets it (GET /admin/v1/session). */
  async csrfToken(): Promise<string> {
    return this.page.evaluate(async () => {
      const res = await fetch('/admin/v1/session', { credentials: 'same-origin' });
      return ((await res.json()) as { csrfToken: string }).csrfToken;
    });
  }

  /** A request from the signed-in page, as the dashboard sends it (cookie, CSRF token): its status. */
  async apiStatus(method: string, path: string, body: unknown = {}): Promise<number> {
    const csrf = await this.csrfToken();
    return this.page.evaluate(
      async ({ method, path, body, csrf }) => {
        const res = await fetch(`/admin/v1${path}`, {
          method,
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
          body: JSON.stringify(body),
        });
        return res.status;
      },
      { method, path, body, csrf },
    );
  }
}
