/**
 * The dashboard as the operator: signing in lands on the day's figures, the merchants one click
 * away; a merchant, a channel and a merchant-viewer created; the viewer then signs in (landing on
 * their merchant's figures) and cannot refund (no Refund button, and the admin API answers 403).
 * The audit log. axe on every page at 1280 and 390 px (once each, with its screenshot; the audit
 * log's are admin-money.spec.ts's).
 */
import { randomBytes } from 'node:crypto';
import { AdminShell } from '../pages/admin/AdminShell';
import { HomePage } from '../pages/admin/HomePage';
import { MerchantPage } from '../pages/admin/MerchantPage';
import { MerchantsPage } from '../pages/admin/MerchantsPage';
import { PaymentPage } from '../pages/admin/PaymentPage';
import { SignInPage } from '../pages/admin/SignInPage';
import { UsersPage } from '../pages/admin/UsersPage';
import { expect, test } from '../support/fixtures';

test.setTimeout(120_000);

/** A signed-out dashboard asks GET /admin/v1/session first: the API's 401, which Chromium logs. */
const SIGNED_OUT_401 = /status of 401/;

test.beforeEach(({ browserErrors }) => browserErrors.allow(SIGNED_OUT_401));

test('the operator creates a merchant, a channel and a merchant-viewer, who then cannot refund', async ({
  page,
  harness,
  browserErrors,
}) => {
  // the viewer's refund through the API, refused: Chromium logs the 403
  browserErrors.allow(/status of 403/);
  const suffix = randomBytes(4).toString('hex');
  const signIn = new SignInPage(page);
  const shell = new AdminShell(page);
  await signIn.open(harness.gatewayUrl);
  await signIn.signIn(harness.admin.operator.username, harness.admin.operator.password);
  await new HomePage(page).expectShown();
  await shell.go('Merchants', 'Merchants');

  const merchants = new MerchantsPage(page);
  const name = `E2E Shop ${suffix}`;
  await merchants.create(name);
  await shell.screenshots('merchants');
  await merchants.open(name);
  await shell.expectPage(`Merchant ${name}`);
  const entityId = await new MerchantPage(page).createChannel(`E2E_Channel_${suffix}`, 'VISA MASTER');
  await shell.expectAccessible();

  await page.getByRole('link', { name: `E2E_Channel_${suffix}` }).click();
  await shell.expectPage(`Channel E2E_Channel_${suffix}`);
  await expect(page.getByText(entityId).first()).toBeVisible();
  // the operator changes it: a throttle of its own
  const change = page.getByRole('region', { name: 'Change the channel' });
  await change.getByLabel('Throttle (requests per minute)').fill('120');
  await change.getByRole('button', { name: 'Save channel' }).click();
  await expect(change.getByRole('status')).toHaveText('The channel was saved.');
  await expect(page.locator('dl.facts')).toContainText('120 requests per minute');
  await shell.screenshots('channel');

  const viewer = { username: `viewer-${suffix}`, password: `viewer-password-${suffix}` };
  await shell.go('Users', 'Users');
  await new UsersPage(page).create({
    ...viewer,
    role: 'merchant-viewer',
    merchantId: harness.admin.merchantId,
  });
  await shell.screenshots('users');

  await shell.go('Audit log', 'Audit log');
  await expect(
    page
      .getByRole('table', { name: /Audit log/ })
      .locator('tbody tr')
      .first(),
  ).toBeVisible();
  await shell.signOut();

  // the viewer: the demo merchant's payments, read only
  await signIn.signIn(viewer.username, viewer.password);
  await new HomePage(page).expectShown();
  await shell.go('Payments', 'Payments');
  const first = page
    .getByRole('table', { name: /Payments/ })
    .locator('tbody tr')
    .first()
    .getByRole('link');
  const paymentId = (await first.textContent())!.trim();
  await first.click();
  await shell.expectPage(`Payment ${paymentId}`);
  const payment = new PaymentPage(page);
  await expect(payment.backOffice).toContainText('Your role may look at payments, not change them.');
  await expect(payment.refundButton).toHaveCount(0);
  await shell.expectAccessible();
  const status = await shell.apiStatus(
    'POST',
    `/merchants/${encodeURIComponent(harness.admin.merchantId)}/payments/${encodeURIComponent(paymentId)}/refunds`,
    { amount: '1.00', currency: 'EUR' },
  );
  expect(status).toBe(403);
  await expect(shell.nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await shell.signOut();
});
