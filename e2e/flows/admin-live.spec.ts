/**
 * The dashboard on the live address (https://127.0.0.1:<live port>, the harness's self-signed
 * certificate, accepted in this file only): served with its own strict CSP, the same users sign
 * in (the session cookie Secure there), and the payments listed are the live environment's.
 */
import { AdminShell } from '../pages/admin/AdminShell';
import { HomePage } from '../pages/admin/HomePage';
import { SignInPage } from '../pages/admin/SignInPage';
import { expect, test } from '../support/fixtures';

test.use({ ignoreHTTPSErrors: true });

test('the live address serves the dashboard under its strict CSP; the demo admin signs in and sees no test payment there', async ({
  page,
  harness,
  browserErrors,
}) => {
  // the signed-out session read
  browserErrors.allow(/status of 401/);
  const response = await page.goto(`${harness.live.gatewayUrl}/admin/`);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  const signIn = new SignInPage(page);
  const shell = new AdminShell(page);
  await expect(signIn.heading).toBeVisible();
  await signIn.signIn(harness.admin.merchantAdmin.username, harness.admin.merchantAdmin.password);
  const cookie = (await page.context().cookies(`${harness.live.gatewayUrl}/admin/`)).find(
    (c) => c.name === 'gw_admin',
  );
  expect(cookie?.secure).toBe(true);
  expect(cookie?.httpOnly).toBe(true);
  await new HomePage(page).expectShown();
  // the banner says which money this is
  await expect(page.getByRole('region', { name: 'Environment' })).toHaveText('Live environment: real money');
  await shell.go('Payments', 'Payments');
  // yesterday's settled payment is a test one: not on the live address
  await page.getByLabel('Merchant transaction id').fill(harness.admin.settledOrder);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('status')).toHaveText('No payments match.');
  await shell.expectAccessible();
  await shell.signOut();
});
