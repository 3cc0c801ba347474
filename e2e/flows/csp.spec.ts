/**
 * A shop page with a strict Content-Security-Policy (nonce-only scripts) and
 * `require-trusted-types-for 'script'`: the widget and its frames must run without a single
 * violation, and the payment must go through.
 */
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';

test('strict CSP with Trusted Types: no violations, payment succeeds', async ({
  shop,
  card,
  result,
  page,
  browserErrors,
}) => {
  // Every frame (the shop page and the gateway's card-field frames) records its violations.
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const cspConsole: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|TrustedHTML|TrustedScript|Trusted Type/i.test(message.text())) {
      cspConsole.push(message.text());
    }
  });

  await shop.open({ csp: 'strict' });
  const header = await page.evaluate(async () =>
    (await fetch(location.href)).headers.get('content-security-policy'),
  );
  expect(header).toContain("require-trusted-types-for 'script'");
  await card.ready();
  await card.fill(TEST_CARD);

  const violations = async () => {
    const all: string[] = [];
    for (const frame of page.frames()) {
      const list = await frame
        .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
        .catch(() => [] as string[]);
      all.push(...list.map((v) => `${frame.url()}: ${v}`));
    }
    return all;
  };
  expect(page.frames().length, 'the page and its two card-field frames').toBeGreaterThanOrEqual(3);
  expect(await violations()).toEqual([]);

  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  expect(cspConsole).toEqual([]);
  expect(browserErrors.seen).toEqual([]);
});
