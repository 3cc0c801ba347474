/**
 * Options a flow adds to whatever `window.wpwlOptions` the shop's page sets (its preset), before
 * the widget reads them: plain data only (the page's own callbacks stay). A merchant writes them in
 * its page; the flows add them without a preset of their own.
 */
import type { Page } from '@playwright/test';

export async function addPageOptions(page: Page, extra: Record<string, unknown>): Promise<void> {
  await page.addInitScript((added: Record<string, unknown>) => {
    let options: Record<string, unknown> | undefined;
    Object.defineProperty(window, 'wpwlOptions', {
      configurable: true,
      get: () => options,
      set: (value: Record<string, unknown>) => {
        const merged: Record<string, unknown> = { ...value };
        for (const [key, v] of Object.entries(added)) {
          const own = merged[key];
          merged[key] =
            own !== null && typeof own === 'object' && v !== null && typeof v === 'object'
              ? { ...own, ...v }
              : v;
        }
        options = merged;
      },
    });
  }, extra);
}
