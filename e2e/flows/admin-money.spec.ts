/**
 * The dashboard safe with money (issue 34): a refund asks first, showing what remains refundable
 * (the server's count) with the amount prefilled; Escape cancels; an over-refund is refused in
 * words inside the dialog; a capture of part of a preauthorization, what remains capturable after; the banner says test; dark mode is axe-clean; the audit log lists
 * newest first and filters by action; a chargeback booked and a preauthorization reversed, each
 * after its confirmation; the delivery log's endpoint, payload and filters, its pages, a delivery
 * resent, and a removed webhook's dead letters shown as such and not offered again. axe on every state at 1280 and 390 px (once each, with its
 * screenshot).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext } from '@playwright/test';
import { AdminShell } from '../pages/admin/AdminShell';
import { HomePage } from '../pages/admin/HomePage';
import { PaymentPage } from '../pages/admin/PaymentPage';
import { adminApi, pageShots } from '../pages/admin/pageShots';
import { SignInPage } from '../pages/admin/SignInPage';
import { WebhooksPage } from '../pages/admin/WebhooksPage';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';
import type { HarnessInfo } from '../support/harness';

// three dialogs' states, each scanned by axe at two widths, on two shared cores
test.setTimeout(300_000);

const SIGNED_OUT_401 = /status of 401/;
/** The over-refund's answer: the API's 400, which Chromium logs. */
const REFUSED_400 = /status of 400/;
test.beforeEach(({ browserErrors }) => {
  browserErrors.allow(SIGNED_OUT_401);
  browserErrors.allow(REFUSED_400);
});

/** A payment of the demo merchant (a 50.00 EUR debit unless told), made through the API: its id. */
async function debit(
  request: APIRequestContext,
  harness: HarnessInfo,
  { paymentType = 'DB', amount = '50.00' } = {},
): Promise<string> {
  const [month, year] = TEST_CARD.expiry.split('/') as [string, string];
  const res = await request.post(`${harness.gatewayUrl}/v1/payments`, {
    headers: { authorization: `Bearer ${harness.accessToken}` },
    form: {
      entityId: harness.admin.settledEntityId,
      amount,
      currency: 'EUR',
      paymentType,
      paymentBrand: 'VISA',
      'card.number': TEST_CARD.number,
      'card.holder': TEST_CARD.holder,
      'card.expiryMonth': month,
      'card.expiryYear': `20${year}`,
      'card.cvv': TEST_CARD.cvv,
    },
  });
  const body = (await res.json()) as { id: string };
  expect(res.status(), JSON.stringify(body)).toBe(200);
  return body.id;
}

test('a refund asks first with what remains, cancels on Escape, says an over-refund in words and takes a partial refund, books a chargeback; a capture asks with what remains capturable; a reversal asks first', async ({
  page,
  harness,
  request,
}) => {
  const id = await debit(request, harness);
  const shell = new AdminShell(page);
  await new SignInPage(page).open(harness.gatewayUrl);
  await new SignInPage(page).signIn(
    harness.admin.merchantAdmin.username,
    harness.admin.merchantAdmin.password,
  );
  await new HomePage(page).expectShown();
  await expect(page.getByRole('region', { name: 'Environment' })).toContainText('Test environment');

  await page.goto(`${harness.gatewayUrl}/admin/#/merchants/${harness.admin.merchantId}/payments/${id}`);
  await shell.expectPage(`Payment ${id}`);
  const payment = new PaymentPage(page);

  // Escape cancels: nothing sent, the focus back on the button that opened it
  let dialog = await payment.openRefund();
  await expect(dialog).toContainText(/Remaining refundable\s*€?50[.,]00/);
  await expect(dialog.getByLabel(/^Amount/)).toHaveValue('50.00');
  await shell.screenshots('refund-confirm');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(payment.refundButton).toBeFocused();
  await expect(payment.related.filter({ hasText: 'RF' })).toHaveCount(0);

  // more than remains: refused in words, in the dialog, which stays open
  dialog = await payment.openRefund();
  await dialog.getByLabel(/^Amount/).fill('60.00');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'The refund is more than what remains refundable (50.00 EUR).',
  );
  await expect(dialog).not.toContainText('invalid workflow');
  await shell.screenshots('refund-refused');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await payment.refund('12.00');
  // the refused refund is kept as the family keeps every transaction; the taken one beside it
  await expect(payment.related.filter({ hasText: 'RF' }).filter({ hasText: /12[.,]00/ })).toHaveCount(1);
  dialog = await payment.openRefund();
  await expect(dialog.getByLabel(/^Amount/)).toHaveValue('38.00');
  await page.keyboard.press('Escape');

  // a chargeback booked (the test environment's), asked first with what remains chargeable
  dialog = await payment.open('Book a chargeback');
  await expect(dialog).toContainText('Remaining chargeable');
  await dialog.getByLabel(/^Amount/).fill('5.00');
  await dialog.getByRole('button', { name: 'Book a chargeback', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(payment.backOffice.getByRole('status').filter({ hasText: 'Book a chargeback' })).toBeVisible();
  await expect(payment.related.filter({ hasText: 'CB' }).filter({ hasText: /5[.,]00/ })).toHaveCount(1);

  // dark mode follows the system: the same page, axe-clean (colour contrast included)
  await page.emulateMedia({ colorScheme: 'dark' });
  await shell.screenshots('payment-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // a preauthorization: the capture asks with what remains capturable, and takes part of it
  const pa = await debit(request, harness, { paymentType: 'PA', amount: '30.00' });
  await page.goto(`${harness.gatewayUrl}/admin/#/merchants/${harness.admin.merchantId}/payments/${pa}`);
  await shell.expectPage(`Payment ${pa}`);
  dialog = await payment.open('Capture');
  await expect(dialog).toContainText(/Remaining capturable\s*€?30[.,]00/);
  await expect(dialog.getByLabel(/^Amount/)).toHaveValue('30.00');
  await page.keyboard.press('Escape');
  await payment.act('Capture', '10.00');
  await expect(payment.related.filter({ hasText: 'CP' }).filter({ hasText: /10[.,]00/ })).toHaveCount(1);
  dialog = await payment.open('Capture');
  await expect(dialog.getByLabel(/^Amount/)).toHaveValue('20.00');
  await page.keyboard.press('Escape');

  // another preauthorization reversed whole, after saying so: no amount to choose
  const reversed = await debit(request, harness, { paymentType: 'PA', amount: '20.00' });
  await page.goto(`${harness.gatewayUrl}/admin/#/merchants/${harness.admin.merchantId}/payments/${reversed}`);
  await shell.expectPage(`Payment ${reversed}`);
  dialog = await payment.open('Reverse');
  await expect(dialog).toContainText(/Remaining reversible\s*€?20[.,]00/);
  await expect(dialog).toContainText('cannot be undone');
  await expect(dialog.getByLabel(/^Amount/)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Reverse', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(payment.backOffice.getByRole('status')).toContainText('Reverse');
  await expect(payment.related.filter({ hasText: 'RV' })).toHaveCount(1);
  await shell.signOut();
});

test('the operator reads the audit log newest first and filters it by action', async ({ page, harness }) => {
  const shell = new AdminShell(page);
  await new SignInPage(page).open(harness.gatewayUrl);
  await new SignInPage(page).signIn(harness.admin.operator.username, harness.admin.operator.password);
  await new HomePage(page).expectShown();
  await shell.go('Audit log', 'Audit log');
  const times = await page.locator('tbody tr td:first-child').allTextContents();
  expect(times.length).toBeGreaterThan(1);
  const ids = await page.evaluate(async () => {
    const res = await fetch('/admin/v1/audit?limit=5', { credentials: 'same-origin' });
    return ((await res.json()) as { entries: { id: number }[] }).entries.map((e) => e.id);
  });
  expect(ids).toEqual([...ids].sort((a, b) => b - a));
  await pageShots(page, 'audit');

  await page.getByLabel('Action').fill('session.sign-in');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('table').locator('tbody tr').first()).toContainText('session.sign-in');
  // the filtered page replaces the whole log once it has loaded
  await expect
    .poll(async () => new Set(await page.locator('tbody tr td:nth-child(3)').allTextContents()))
    .toEqual(new Set(['session.sign-in']));
  await page.emulateMedia({ colorScheme: 'dark' });
  await pageShots(page, 'audit-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

test('the delivery log shows each delivery’s endpoint and payload, filters by event type and endpoint, resends one; its pages of dead letters, their webhook removed: none offered again', async ({
  page,
  harness,
  request,
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
  const url = `${harness.shopUrl}/webhooks?log=${Date.now()}`;
  const webhookId = await webhooks.registerWebhook(url);
  expect(webhookId).not.toBe('');
  const id = await debit(request, harness);
  // delivered (a finished delivery may be sent again) before the log is read
  const deliveries = `/merchants/${harness.admin.merchantId}/webhook-deliveries?webhookId=${webhookId}&type=PAYMENT`;
  await expect
    .poll(async () => {
      const { body } = await adminApi<{ deliveries: { paymentId: string | null; status: string }[] }>(
        page,
        'GET',
        deliveries,
      );
      return body.deliveries?.find((d) => d.paymentId === id)?.status;
    })
    .toBe('delivered');
  await page.reload();
  await shell.expectPage('Webhooks');
  await webhooks.log.getByLabel('Event type').selectOption('PAYMENT');
  await webhooks.log.getByLabel('Endpoint').selectOption({ label: url });
  const row = webhooks.log.locator('tbody tr').filter({ hasText: id });
  // other flows' webhooks got the same payment too: one row once the endpoint filter applied
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(url);
  await row.getByRole('button', { name: /^Payload of delivery/ }).click();
  await expect(row.getByRole('region', { name: /^Notification of delivery/ })).toContainText(`"id": "${id}"`);
  await pageShots(page, 'webhooks-delivery-log');

  // resent, after a confirmation naming where it goes
  await row.getByRole('button', { name: /^Resend delivery/ }).click();
  await expect(page.getByRole('dialog', { name: 'Resend?' })).toContainText(url);
  await shell.confirm('Resend');
  await expect(webhooks.log.getByText(/^Delivery \d+ will be sent again\.$/)).toBeVisible();

  // an endpoint that answers the test notification, then fails: 26 payments' deliveries wait for
  // their retry, and are dead-lettered when the webhook is removed (one more than a page of 25)
  let received = 0;
  const failing = createServer((req, res) => {
    req.resume();
    received += 1;
    res.writeHead(received === 1 ? 200 : 500).end();
  });
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  try {
    const down = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/webhooks`;
    const downId = await webhooks.registerWebhook(down);
    const paid: string[] = [];
    for (let i = 0; i < 26; i++) paid.push(await debit(request, harness, { amount: '1.00' }));
    // each tried once and failed (removing the webhook while one is being sent would race it)
    await expect
      .poll(
        async () => {
          const { body } = await adminApi<{ deliveries: { attempts: number; status: string }[] }>(
            page,
            'GET',
            `/merchants/${harness.admin.merchantId}/webhook-deliveries?webhookId=${downId}&limit=100`,
          );
          return body.deliveries?.filter((d) => d.attempts >= 1 && d.status === 'pending').length;
        },
        { timeout: 30_000 },
      )
      .toBe(26);
    await webhooks.registered.getByRole('button', { name: `Remove webhook ${down}` }).click();
    await shell.confirm('Remove');
    await page.reload();
    await shell.expectPage('Webhooks');
    // the dead letters, newest first, in pages of 25: only this endpoint's are dead
    await webhooks.log.getByLabel('Status').selectOption('dead');
    await webhooks.log.getByLabel('Event type').selectOption('PAYMENT');
    const rows = webhooks.log.locator('tbody tr');
    await expect(rows).toHaveCount(25);
    await expect(rows.first()).toContainText(paid[25]!);
    await expect(rows.first()).toContainText('dead');
    await webhooks.log.getByRole('button', { name: 'Older deliveries' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(paid[0]!);
    await expect(webhooks.log.getByRole('button', { name: 'Older deliveries' })).toHaveCount(0);
    await webhooks.log.getByRole('button', { name: 'Newer deliveries' }).click();
    await expect(rows).toHaveCount(25);
    // the removed webhook's dead letters say so, and offer no resend: it could only die again
    await expect(rows.first()).toContainText('removed webhook');
    await expect(rows.first()).not.toContainText(downId);
    await expect(rows.getByRole('button', { name: /^Resend delivery/ })).toHaveCount(0);
    // nor does the admin API take one: refused with its reason, nothing queued
    const { body: dead } = await adminApi<{ deliveries: { id: number }[] }>(
      page,
      'GET',
      `/merchants/${harness.admin.merchantId}/webhook-deliveries?webhookId=${downId}&limit=1`,
    );
    const seq = dead.deliveries[0]!.id;
    const again = await adminApi<{ result: { description: string } }>(
      page,
      'POST',
      `/merchants/${harness.admin.merchantId}/webhook-deliveries/${seq}/redeliver`,
    );
    expect(again.status).toBe(400);
    expect(again.body.result.description).toBe(
      `delivery ${seq} is not sent again: its webhook ${downId} was removed`,
    );
  } finally {
    failing.close();
  }
});
