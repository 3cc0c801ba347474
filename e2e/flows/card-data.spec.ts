/**
 * Card data never touches the shop page: after the number is typed (inside the gateway's frame)
 * and after the payment, nothing the shop's scripts can read holds the full card number: the
 * DOM, input values, storage, cookies, the URL, and every message posted to the page.
 */
import type { Page } from '@playwright/test';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';

const PAN = TEST_CARD.number;
/** The number with any separators a page might keep it with. */
const PAN_PATTERN = new RegExp(PAN.split('').join('[\\s-]?'));

/**
 * Everything a script in the top frame can read. The demo shop prints the test card's number as
 * a hint for newcomers (`p.shop-hint`); that text is the shop's own, so it is left out.
 */
async function topFrameReadable(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const dom = document.documentElement.cloneNode(true) as HTMLElement;
    for (const hint of Array.from(dom.querySelectorAll('.shop-hint'))) hint.remove();
    const fields = Array.from(document.querySelectorAll('input, textarea, select')).map(
      (el) => `${(el as HTMLInputElement).name}=${(el as HTMLInputElement).value}`,
    );
    const storage = (s: Storage) => JSON.stringify(Object.fromEntries(Object.entries(s)));
    return {
      outerHTML: dom.outerHTML,
      text: dom.textContent ?? '',
      fields: fields.join('\n'),
      localStorage: storage(localStorage),
      sessionStorage: storage(sessionStorage),
      cookie: document.cookie,
      url: location.href,
      name: window.name,
      messages: JSON.stringify((window as unknown as { __messages?: unknown[] }).__messages ?? []),
      wpwl: JSON.stringify((window as unknown as { wpwl?: unknown }).wpwl ?? null),
      resources: performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .join('\n'),
    };
  });
}

function expectNoPan(readable: Record<string, string>, when: string): void {
  for (const [where, value] of Object.entries(readable)) {
    expect(value, `${where} ${when}`).not.toMatch(PAN_PATTERN);
  }
}

test('the host page never sees the full card number', async ({ shop, card, result, page }) => {
  // The top frame records every message posted to it (what the card-field frames tell the page).
  await page.addInitScript(() => {
    if (window !== window.top) return;
    const w = window as unknown as { __messages: unknown[] };
    w.__messages = [];
    window.addEventListener('message', (e) => w.__messages.push(e.data));
  });
  await shop.open();
  await card.ready();
  await card.fill(TEST_CARD);
  // The frame holds it (formatted); the page knows only that it is valid and its last four digits.
  await expect(card.frameInput('cardNumber')).toHaveValue('4200 0000 0000 0000');
  await expect(card.brand).toHaveClass(/\bwpwl-brand-VISA\b/);

  const before = await topFrameReadable(page);
  expect(before.messages).toContain('"last4":"0000"');
  expectNoPan(before, 'after typing');
  const hint = await page.locator('.shop-hint').evaluate((el) => el.outerHTML);
  expect(hint).toContain('4200 0000 0000 0000');
  expect((await page.content()).replace(hint, '')).not.toMatch(PAN_PATTERN);

  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  expectNoPan(await topFrameReadable(page), 'on the result page');
  expect(await page.content()).not.toMatch(PAN_PATTERN);
});
