/**
 * The flows' `test`: Playwright's, with the harness (URLs and the demo merchant, from global setup)
 * and the page objects as fixtures, and a watch on the browser: any page error or console error
 * fails the flow unless the flow says it expects it (`browserErrors.allow(/…/)`).
 */
import { test as base, expect } from '@playwright/test';
import { CardForm } from '../pages/CardForm';
import { DirectDebitForm } from '../pages/DirectDebitForm';
import { OneClickForm } from '../pages/OneClickForm';
import { PaymentModal } from '../pages/PaymentModal';
import { RedirectForm } from '../pages/RedirectForm';
import { ResultPage } from '../pages/ResultPage';
import { ShopPage } from '../pages/ShopPage';
import { WalletForm } from '../pages/WalletForm';
import { WalletSheet } from '../pages/WalletSheet';
import type { HarnessInfo } from './harness';

export function harnessInfo(): HarnessInfo {
  const raw = process.env.E2E_HARNESS;
  if (raw === undefined)
    throw new Error('E2E_HARNESS is not set: run through playwright test (global setup)');
  return JSON.parse(raw) as HarnessInfo;
}

export interface BrowserErrors {
  /** Errors seen so far (console errors and uncaught exceptions), in every frame. */
  readonly seen: string[];
  /** Messages matching this are expected by the flow and do not fail it. */
  allow(pattern: RegExp): void;
}

export interface Fixtures {
  harness: HarnessInfo;
  shop: ShopPage;
  card: CardForm;
  directDebit: DirectDebitForm;
  oneClick: OneClickForm;
  modal: PaymentModal;
  redirectForm: RedirectForm;
  result: ResultPage;
  wallet: WalletForm;
  sheet: WalletSheet;
  browserErrors: BrowserErrors;
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies destructured
  harness: async ({}, use) => {
    await use(harnessInfo());
  },
  shop: async ({ page, harness }, use) => {
    await use(new ShopPage(page, harness));
  },
  card: async ({ page }, use) => {
    await use(new CardForm(page));
  },
  directDebit: async ({ page }, use) => {
    await use(new DirectDebitForm(page));
  },
  oneClick: async ({ page }, use) => {
    await use(new OneClickForm(page));
  },
  modal: async ({ page }, use) => {
    await use(new PaymentModal(page));
  },
  redirectForm: async ({ page }, use) => {
    await use(new RedirectForm(page));
  },
  result: async ({ page }, use) => {
    await use(new ResultPage(page));
  },
  wallet: async ({ page }, use) => {
    await use(new WalletForm(page));
  },
  sheet: async ({ page }, use) => {
    await use(new WalletSheet(page));
  },
  browserErrors: [
    async ({ page }, use) => {
      const seen: string[] = [];
      const allowed: RegExp[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const { url } = message.location();
        // The browser's own favicon request; the demo shop has none.
        if (url.endsWith('/favicon.ico')) return;
        seen.push(`console: ${message.text()} (${url})`);
      });
      page.on('pageerror', (error) => seen.push(`pageerror: ${error.message}`));
      await use({ seen, allow: (pattern) => allowed.push(pattern) });
      const unexpected = seen.filter((line) => !allowed.some((p) => p.test(line)));
      expect(unexpected, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
