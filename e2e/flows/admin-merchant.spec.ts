/**
 * The dashboard (/admin/) as the demo merchant's admin: sign in (landing on the home page, the
 * merchant's figures of the day; the merchant's page one click away), an access token used with curl,
 * a shop payment found by its merchantTransactionId and partly refunded (the refund and its
 * webhook delivery on the payment's page), a webhook registered, a reconciliation file downloaded,
 * sign out. axe on every page at 1280 and 390 px (once each, with its screenshot).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AdminShell } from '../pages/admin/AdminShell';
import { HomePage } from '../pages/admin/HomePage';
import { MerchantPage } from '../pages/admin/MerchantPage';
import { PaymentPage } from '../pages/admin/PaymentPage';
import { PaymentsPage } from '../pages/admin/PaymentsPage';
import { pageShots } from '../pages/admin/pageShots';
import { SettlementsPage } from '../pages/admin/SettlementsPage';
import { SignInPage } from '../pages/admin/SignInPage';
import { WebhooksPage } from '../pages/admin/WebhooksPage';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';
import { createRegistration } from '../support/gateway';
import { getWithToken } from '../support/http';

// axe at two widths on every page, on two cores shared by many
test.setTimeout(240_000);

/** A signed-out dashboard asks GET /admin/v1/session first: the API's 401, which Chromium logs. */
const SIGNED_OUT_401 = /status of 401/;

test.beforeEach(({ browserErrors }) => browserErrors.allow(SIGNED_OUT_401));

test('the merchant admin signs in, creates an access token, uses it with curl, sees its last use, revokes it, then signs out', async ({
  page,
  harness,
}) => {
  const signIn = new SignInPage(page);
  const shell = new AdminShell(page);
  await signIn.open(harness.gatewayUrl);
  await shell.screenshots('sign-in');
  await signIn.signIn(harness.admin.merchantAdmin.username, harness.admin.merchantAdmin.password);
  // the home page: their own merchant's figures of the day (no merchant to pick), the landing's shots
  const home = new HomePage(page);
  await home.expectShown();
  await expect(home.merchant).toHaveCount(0);
  await expect(page.getByText("your merchant: the day's payments")).toBeVisible();
  await pageShots(page, 'home-merchant');
  await shell.go('Merchant and channels', /^Merchant /);
  await shell.screenshots('merchant');

  const merchant = new MerchantPage(page);
  const token = await merchant.createToken();
  expect(token.accessToken.length).toBeGreaterThanOrEqual(32);
  await expect(merchant.tokenRow(token.id)).toContainText('Never');
  // the harness's payment of yesterday, found with the new token
  const answer = await getWithToken(
    `${harness.gatewayUrl}/v1/query?entityId=${encodeURIComponent(harness.admin.settledEntityId)}&merchantTransactionId=${harness.admin.settledOrder}`,
    token.accessToken,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(JSON.stringify(answer.body)).toContain(harness.admin.settledOrder);
  await page.reload();
  await shell.expectPage(/^Merchant /);
  await expect(merchant.tokenRow(token.id)).not.toContainText('Never');

  // revoked: the same call is refused
  await merchant
    .tokenRow(token.id)
    .getByRole('button', { name: `Revoke token ${token.id}` })
    .click();
  // a credential action asks first
  await shell.confirm('Revoke');
  await expect(merchant.tokenRow(token.id)).toContainText('Revoked');
  // the gateway keeps a checked token a few seconds (credentials middleware): refused once that ends
  const query = `${harness.gatewayUrl}/v1/query?entityId=${encodeURIComponent(harness.admin.settledEntityId)}&merchantTransactionId=${harness.admin.settledOrder}`;
  await expect.poll(async () => (await getWithToken(query, token.accessToken)).status).not.toBe(200);
  const refused = await getWithToken(query, token.accessToken);
  expect([401, 403]).toContain(refused.status);
  expect((refused.body as { result: { code: string } }).result.code).toMatch(/^800\.900\./);

  await shell.go('Account', 'Your account');
  await shell.screenshots('account');
  await shell.signOut();
});

test('the merchant admin registers a webhook, finds a shop payment by its merchantTransactionId, refunds part of it and sees the refund and its webhook delivery', async ({
  page,
  harness,
  shop,
  card,
  result,
}) => {
  const shell = new AdminShell(page);
  await new SignInPage(page).open(harness.gatewayUrl);
  await new SignInPage(page).signIn(
    harness.admin.merchantAdmin.username,
    harness.admin.merchantAdmin.password,
  );
  await new HomePage(page).expectShown();

  await shell.go('Webhooks', 'Webhooks');
  const webhooks = new WebhooksPage(page);
  await webhooks.registerWebhook(`${harness.shopUrl}/webhooks`);
  await shell.screenshots('webhooks');

  const order = `order-${randomBytes(6).toString('hex')}`;
  await shop.open({ order });
  await card.ready();
  await card.fill(TEST_CARD);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');

  await page.goto(`${harness.gatewayUrl}/admin/`);
  await new HomePage(page).expectShown();
  await shell.go('Payments', 'Payments');
  const payments = new PaymentsPage(page);
  await payments.searchByMerchantTransactionId(order);
  await shell.screenshots('payments');
  const id = await payments.openOnly();
  await shell.expectPage(`Payment ${id}`);
  const payment = new PaymentPage(page);
  await expect(payment.deliveries.first()).toContainText('PAYMENT');

  await payment.refund('10.00');
  const refund = payment.related.filter({ hasText: 'RF' });
  await expect(refund).toHaveCount(1);
  await expect(refund).toContainText(/10[.,]00/);
  const refundId = (await refund.getByRole('link').textContent())!.trim();
  // the refund's PAYMENT notification, in the payment's delivery log
  await expect(payment.deliveries.filter({ hasText: refundId })).toContainText('PAYMENT');
  await shell.screenshots('payment');

  // the refund's own page: the original it refunds, and the family's deliveries
  await refund.getByRole('link').click();
  await shell.expectPage(`Payment ${refundId}`);
  await expect(payment.related.filter({ hasText: id })).toHaveCount(1);
  await expect(payment.deliveries.filter({ hasText: refundId })).toContainText('PAYMENT');
  // any finished delivery may be sent again; a pending one the gateway is still sending
  const delivery = payment.deliveries.filter({ hasText: refundId });
  const pending = (await delivery.locator('.badge-pending').count()) > 0;
  await expect(delivery.getByRole('button', { name: /^Resend/ })).toHaveCount(pending ? 0 : 1);
  await shell.signOut();
});

test('the merchant admin downloads a reconciliation file and deschedules a scheduled payment', async ({
  page,
  harness,
  request,
}) => {
  // a subscription of the demo merchant, as its backend makes one
  const registrationId = await createRegistration(request, harness);
  const created = await request.post(`${harness.gatewayUrl}/scheduling/v1/schedules`, {
    headers: { authorization: `Bearer ${harness.accessToken}` },
    form: {
      entityId: harness.entityId,
      amount: '9.99',
      currency: 'EUR',
      paymentType: 'DB',
      registrationId,
      'job.second': '0',
      'job.minute': '30',
      'job.hour': '9',
      'job.dayOfMonth': '*',
      'job.month': '*',
    },
  });
  const schedule = (await created.json()) as { id?: string };
  expect(created.status(), JSON.stringify(schedule)).toBe(200);

  const shell = new AdminShell(page);
  await new SignInPage(page).open(harness.gatewayUrl);
  await new SignInPage(page).signIn(
    harness.admin.merchantAdmin.username,
    harness.admin.merchantAdmin.password,
  );
  await new HomePage(page).expectShown();
  await shell.go('Settlements', 'Settlements and reconciliation files');
  const settlements = new SettlementsPage(page);
  await expect(settlements.rows.first()).toBeVisible();
  await shell.screenshots('settlements');
  const download = await settlements.downloadFirst();
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv.split('\n').length).toBeGreaterThan(1);

  await shell.go('Schedules', 'Schedules');
  const row = page.getByRole('row').filter({ hasText: schedule.id! });
  await expect(row).toContainText(/9[.,]99/);
  await shell.screenshots('schedules');
  await row.getByRole('button', { name: `Deschedule ${schedule.id}` }).click();
  await shell.confirm('Deschedule');
  await expect(page.getByRole('status')).toHaveText(`Schedule ${schedule.id} descheduled.`);
  await expect(row.getByRole('button')).toHaveCount(0);
  await shell.signOut();
});
