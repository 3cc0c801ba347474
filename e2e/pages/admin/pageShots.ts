/**
 * The checks each new dashboard page gets at 1280 and 390 px: no horizontal scrolling of the page,
 * axe with no violation at all (any impact), and a screenshot in
 * e2e/test-results/screenshots/<page>-<width>.png, its path printed for the closing note.
 */
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const DIR = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/** Every axe violation (any impact) on the page, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return results.violations.map(
    (v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

export async function pageShots(page: Page, name: string): Promise<void> {
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${name}: no horizontal scrolling at ${width} px`).toBeLessThanOrEqual(width);
    expect(await axeViolations(page), `${name} at ${width} px`).toEqual([]);
    const path = `${DIR}${name}-${width}.png`;
    await page.screenshot({ path, fullPage: true });
    console.log(`screenshot: ${path}`);
  }
  await page.setViewportSize(before);
}

/** A JSON request from the signed-in page, as the dashboard sends it (cookie, CSRF token). */
export async function adminApi<T = Record<string, unknown>>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = await (await fetch('/admin/v1/session', { credentials: 'same-origin' })).json();
      const res = await fetch(`/admin/v1${path}`, {
        method,
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() };
    },
    { method, path, body },
  );
}
