/** What the widget's form shows, as the flows compare it, and where their screenshots go. */
import type { Locator } from '@playwright/test';

/** Screenshots a flow keeps beside the test output (e2e/screenshots/, ignored by git). */
export const SCREENSHOTS = new URL('../screenshots/', import.meta.url);

/** The classes of the form's groups the shopper sees (`wpwl-group-<field>`), in order. */
export const visibleGroups = (form: Locator) =>
  form
    .locator('.wpwl-group:visible')
    .evaluateAll((groups) =>
      groups.map((g) =>
        [...g.classList].find((c) => c.startsWith('wpwl-group-') && !/^wpwl-group-(billing|submit)$/.test(c)),
      ),
    );
