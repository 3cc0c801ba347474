/**
 * The documentation the gateway serves: /docs renders /v1/openapi.json with the renderer served
 * from the gateway itself, its search finds a parameter, and the guides render; no request leaves
 * the machine (anything but 127.0.0.1 is aborted and fails the flow), no console error, no CSP
 * violation, no serious or critical axe violation.
 */
import type { Page } from '@playwright/test';
import { seriousViolations } from '../support/axe';
import { expect, test } from '../support/fixtures';

/** Aborts and records every request to anywhere but this machine; records CSP violations. */
async function offline(page: Page): Promise<{ outside: string[]; violations: () => Promise<string[]> }> {
  const outside: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    outside.push(url.href);
    return route.abort();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const violations = () =>
    page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
  return { outside, violations };
}

const REFERENCE_PARTS = [
  '.menu-content',
  '.api-info',
  '[data-section-id="operation/postV1ThreeDSecure"]',
  '[data-section-id="operation/getV1Query"]',
  '[data-section-id="operation/postAdminV1MerchantsByMerchantIdChannels"]',
  '[data-section-id="tag/Payments"]',
];

test('/docs renders the API reference offline, its search finds card.number, axe clean', async ({
  page,
  harness,
}) => {
  // Redoc renders every operation and schema at once: the page is large, and with the family's
  // brands and parameters larger still; axe over its parts beside the other worker's flows took
  // over two minutes of this 2-core machine
  test.setTimeout(240_000);
  const { outside, violations } = await offline(page);
  const answer = await page.goto(`${harness.gatewayUrl}/docs`);
  expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
  // Redoc parses the whole document (455 KB) before it draws anything: alone about 40 s here,
  // beside the other worker's flows over a minute. The wait polls a plain selector: a role query
  // computes the role of each of the page's 67,000 elements at every poll, on the main thread
  // Redoc draws on (seconds of the draw); the role is asked once it is there.
  await expect(page.locator('#redoc .api-info h1')).toBeVisible({ timeout: 150_000 });
  await expect(page.getByRole('heading', { name: 'Open Payment Gateway API', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Initial payment' }).first()).toBeAttached({
    timeout: 60_000,
  });

  const search = page.getByRole('textbox', { name: /search/i });
  await search.fill('card.number');
  const results = page.locator('[data-role="search:results"] li, .search-results li, [role="search"] li');
  // Redoc builds its search index in a web worker after drawing: beside the other worker's flows
  // in CI that took over the default 10 s (the results never showed in time)
  await expect(results.first()).toBeVisible({ timeout: 90_000 });
  // the operation whose description names it
  await expect(results.filter({ hasText: 'Initial payment' }).first()).toBeVisible();
  await search.fill('');

  // axe over the whole rendered reference takes minutes on this machine: it checks one of each
  // of its parts instead (the navigation with the search, the introduction with the result-code
  // groups, a form request with its catalogue table, a query with its parameters, a JSON request)
  for (const part of REFERENCE_PARTS) await expect(page.locator(part), part).toHaveCount(1);
  expect(await seriousViolations(page, REFERENCE_PARTS.join(', '))).toEqual([]);
  expect(await violations()).toEqual([]);
  expect(outside).toEqual([]);
});

for (const [path, heading] of [
  ['/docs/widget', 'Widget'],
  ['/docs/test-data', 'Test cards and triggers'],
  ['/docs/webhooks', 'Webhooks'],
  ['/docs/reconciliation', 'Reconciliation file'],
] as const) {
  test(`${path} renders offline, axe clean`, async ({ page, harness }) => {
    const { outside, violations } = await offline(page);
    await page.goto(`${harness.gatewayUrl}${path}`);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.locator('main table, main pre').first()).toBeVisible();
    expect(await seriousViolations(page, 'body')).toEqual([]);
    expect(await violations()).toEqual([]);
    expect(outside).toEqual([]);
  });
}
