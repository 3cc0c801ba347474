/**
 * The dashboard's records (issue 34): a merchant's saved cards, one deleted after a dialog that
 * says what deleting means; the operator moving saved cards between a channel's two routes (both
 * opp connectors to the harness's acquirer account): one card, the table's route changing with it,
 * refused when its route holds it already, then all of the merchant's, the card that cannot move counted with its reason; the payments exported as CSV from the payments page; the recent API
 * requests; the operator's search box finding a payment by its merchantTransactionId and opening
 * it. Each new page in Chromium at 1280 and 390 px, axe with no violation, a screenshot of each
 * (e2e/test-results/screenshots/<name>-<width>.png, the paths printed).
 */
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { AdminShell } from '../pages/admin/AdminShell';
import { HomePage } from '../pages/admin/HomePage';
import { adminApi, pageShots } from '../pages/admin/pageShots';
import { SignInPage } from '../pages/admin/SignInPage';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';
import type { HarnessInfo, MerchantAccount } from '../support/harness';

test.setTimeout(300_000);

const SIGNED_OUT_401 = /status of 401/;
/** The saved cards' table: Created, Id, Brand, Card, Holder, Route, … */
const ROUTE_COLUMN = 5;
test.beforeEach(({ browserErrors }) => browserErrors.allow(SIGNED_OUT_401));

function card(): Record<string, string> {
  const [month, year] = TEST_CARD.expiry.split('/') as [string, string];
  return {
    paymentBrand: 'VISA',
    'card.number': TEST_CARD.number,
    'card.holder': TEST_CARD.holder,
    'card.expiryMonth': month,
    'card.expiryYear': `20${year}`,
    'card.cvv': TEST_CARD.cvv,
  };
}

/** A call of the merchant API with the demo merchant's token (or `account`'s): its answer. */
async function merchantApi(
  request: APIRequestContext,
  harness: HarnessInfo,
  path: string,
  form: Record<string, string>,
  account: MerchantAccount = { ...harness, entityId: harness.admin.settledEntityId },
): Promise<{ id: string; registrationId?: string; result: { code: string } }> {
  const res = await request.post(`${account.gatewayUrl}${path}`, {
    headers: { authorization: `Bearer ${account.accessToken}` },
    form: { entityId: account.entityId, ...form },
  });
  const body = (await res.json()) as { id: string; result: { code: string } };
  expect(res.status(), JSON.stringify(body)).toBe(200);
  return body;
}

/**
 * A merchant of its own (made by the signed-in operator) whose channel has two routes, both opp
 * connectors to the harness's acquirer account on the test address: the account to pay with.
 */
async function routedMerchant(page: Page, harness: HarnessInfo, name: string) {
  const merchant = await adminApi<{ id: string }>(page, 'POST', '/merchants', { name });
  const channel = await adminApi<{ entityId: string }>(
    page,
    'POST',
    `/merchants/${merchant.body.id}/channels`,
    {
      name,
    },
  );
  const { gatewayUrl, entityId, accessToken } = harness.live.acquirer;
  const opp = { connector: { baseUrl: gatewayUrl, entityId, accessToken } };
  const routed = await adminApi(page, 'PATCH', `/channels/${channel.body.entityId}`, { routes: [opp, opp] });
  expect(routed.status, JSON.stringify(routed.body)).toBe(200);
  const token = await adminApi<{ accessToken: string }>(
    page,
    'POST',
    `/merchants/${merchant.body.id}/tokens`,
    {},
  );
  expect(token.status, JSON.stringify(token.body)).toBe(201);
  const account = { gatewayUrl: harness.gatewayUrl, entityId: channel.body.entityId, ...token.body };
  return { merchantId: merchant.body.id, account };
}

test("a merchant's saved cards, one deleted after saying what that means; the payments as CSV; the recent API requests", async ({
  page,
  harness,
  request,
}) => {
  const order = `records-${randomBytes(6).toString('hex')}`;
  const registration = await merchantApi(request, harness, '/v1/registrations', card());
  await merchantApi(request, harness, '/v1/payments', {
    amount: '42.00',
    currency: 'EUR',
    paymentType: 'DB',
    merchantTransactionId: order,
    ...card(),
  });
  const shell = new AdminShell(page);
  const signIn = new SignInPage(page);
  await signIn.open(harness.gatewayUrl);
  await signIn.signIn(harness.admin.merchantAdmin.username, harness.admin.merchantAdmin.password);
  await new HomePage(page).expectShown();

  // saved cards, from the merchant's page (one click from the home page)
  await shell.go('Merchant and channels', /^Merchant /);
  await page
    .getByRole('navigation', { name: 'Records of this merchant' })
    .getByRole('link', { name: 'Saved cards' })
    .click();
  await shell.expectPage('Saved cards');
  const row = page.getByRole('row').filter({ hasText: registration.id });
  await expect(row).toContainText(`•••• ${TEST_CARD.number.slice(-4)}`);
  await expect(row).toContainText('active');
  await expect(page.getByText(TEST_CARD.number)).toHaveCount(0);
  await pageShots(page, 'admin-records-registrations');

  await row.getByRole('button', { name: `Delete saved card ${registration.id}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete?' });
  await expect(dialog).toContainText('nothing can pay with it any more');
  await expect(dialog).toContainText('REGISTRATION DELETED');
  await pageShots(page, 'admin-records-registration-delete');
  await shell.confirm('Delete');
  await expect(page.getByText(`Saved card ${registration.id} deleted.`)).toBeVisible();
  await expect(row).toContainText('deleted');
  const read = await request.get(
    `${harness.gatewayUrl}/v1/registrations/${registration.id}?entityId=${harness.admin.settledEntityId}`,
    { headers: { authorization: `Bearer ${harness.accessToken}` } },
  );
  expect(read.status()).toBe(404);

  // the payments page exports its filters as CSV
  await shell.go('Payments', 'Payments');
  await page.getByLabel('Merchant transaction id').fill(order);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('row').filter({ hasText: order })).toHaveCount(1);
  const exportLink = page.getByRole('link', { name: 'Export these payments as CSV' });
  const href = await exportLink.getAttribute('href');
  expect(href).toContain(`merchantTransactionId=${order}`);
  const csv = await page.evaluate(
    async (url) => (await fetch(url!, { credentials: 'same-origin' })).text(),
    href,
  );
  const lines = csv.split('\r\n').filter((l) => l !== '');
  expect(lines[0]).toMatch(/^CreatedAt;Id;ShortId;/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(';42.00;EUR;');
  expect(csv).not.toContain(TEST_CARD.number);
  const download = page.waitForEvent('download');
  await exportLink.click();
  expect((await download).suggestedFilename()).toMatch(/^payments-[0-9a-f]{32}-test\.csv$/);
  await pageShots(page, 'admin-records-payments-export');

  // the recent API requests: the registration, the payment, the read of the deleted registration
  await shell.go('Merchant and channels', /^Merchant /);
  await page.getByRole('link', { name: 'Recent API requests' }).click();
  await shell.expectPage('Recent API requests');
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('row').filter({ hasText: '/v1/registrations/:id' }).first()).toBeVisible({
      timeout: 1_000,
    });
  }).toPass({ timeout: 20_000 });
  await expect(
    page.getByRole('row').filter({ hasText: 'POST' }).filter({ hasText: '/v1/payments' }).first(),
  ).toBeVisible();
  await pageShots(page, 'admin-records-requests');
});

test('the operator moves saved cards to another route; finds a payment by its merchantTransactionId and opens it; a merchant admin does not find other merchants', async ({
  page,
  harness,
  request,
  browserErrors,
}) => {
  // the move refused: the API's 400
  browserErrors.allow(/status of 400/);
  const order = `search-${randomBytes(6).toString('hex')}`;
  const payment = await merchantApi(request, harness, '/v1/payments', {
    amount: '7.50',
    currency: 'EUR',
    paymentType: 'DB',
    merchantTransactionId: order,
    ...card(),
  });
  const shell = new AdminShell(page);
  const signIn = new SignInPage(page);
  await signIn.open(harness.gatewayUrl);
  await signIn.signIn(harness.admin.operator.username, harness.admin.operator.password);
  await new HomePage(page).expectShown();

  // saved cards moved between a channel's routes: one registered by the cardholder's first payment
  // at route 1 (EXTERNAL: through the connector, its network transaction id kept), one by the
  // simulator (INTERNAL: nothing to move)
  const name = `Moves_${order}`;
  const { merchantId, account } = await routedMerchant(page, harness, name);
  const cit = await merchantApi(
    request,
    harness,
    '/v1/payments',
    {
      ...card(),
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      testMode: 'EXTERNAL',
      createRegistration: 'true',
      'standingInstruction.mode': 'INITIAL',
      'standingInstruction.source': 'CIT',
      'standingInstruction.type': 'UNSCHEDULED',
    },
    account,
  );
  expect(cit.result.code).toBe('000.100.112');
  const id = cit.registrationId!;
  const simulated = await merchantApi(request, harness, '/v1/registrations', card(), account);
  await page.goto(`${harness.gatewayUrl}/admin/#/merchants/${merchantId}/registrations`);
  await shell.expectPage('Saved cards');
  // the route holding each card (numbered from 1, its connector's kind): none for the simulator's
  const routeOf = (saved: string) =>
    page.getByRole('row').filter({ hasText: saved }).getByRole('cell').nth(ROUTE_COLUMN);
  await expect(routeOf(id)).toHaveText('1 (opp)');
  await expect(routeOf(simulated.id)).toHaveText('—');
  const moveOne = page.getByRole('button', { name: `Move to route: saved card ${id}` });
  await moveOne.click();
  let dialog = page.getByRole('dialog', { name: 'Move to route?' });
  await dialog.getByLabel('Route').selectOption('Route 2');
  await expect(dialog).toContainText(`Saved card ${id} moves to route 2 of its channel`);
  await expect(dialog).toContainText(`${name}: opp at ${harness.gatewayUrl}`);
  await pageShots(page, 'admin-records-registration-move');
  await shell.confirm('Move to route', 'Move');
  await expect(page.getByRole('status')).toHaveText(`Saved card ${id} moved to route 2.`);
  await expect(routeOf(id)).toHaveText('2 (opp)');
  // moved: asked again, route 2 says it holds it already (in words, routes counted from 1)
  await moveOne.click();
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    `Saved card ${id} cannot move to route 2: route 2 holds it already.`,
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // all of the merchant's back to route 1: the simulator's card stays, with its reason
  await page.getByRole('button', { name: 'Move all saved cards to route' }).click();
  dialog = page.getByRole('dialog', { name: 'Move all saved cards to route?' });
  await dialog.getByLabel('Route').selectOption('Route 1');
  await expect(dialog).toContainText('Every active saved card that can moves to route 1');
  await shell.confirm('Move all saved cards to route', 'Move');
  await expect(page.getByRole('status')).toHaveText(
    `Saved card ${id} moved to route 1. 1 not moved: no network transaction id of its initial cardholder-initiated payment was kept.`,
  );
  await expect(routeOf(id)).toHaveText('1 (opp)');
  await expect(routeOf(simulated.id)).toHaveText('—');

  await shell.go('Search', 'Search');
  const box = page.getByLabel('Payment, merchantTransactionId, saved card, checkout or merchant');
  await box.fill(order);
  await box.press('Enter');
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results).toContainText(order);
  await pageShots(page, 'admin-records-search');
  await results.getByRole('link', { name: payment.id }).click();
  await shell.expectPage(`Payment ${payment.id}`);

  // a text that is nothing: said so
  await shell.go('Search', 'Search');
  await box.fill(`nothing-${order}`);
  await box.press('Enter');
  await expect(page.getByRole('status')).toHaveText(`Nothing found for “nothing-${order}”.`);

  // the merchant's admin finds their payment, and no merchant
  await shell.signOut();
  await signIn.signIn(harness.admin.merchantAdmin.username, harness.admin.merchantAdmin.password);
  await shell.go('Search', 'Search');
  await box.fill(harness.admin.merchantId);
  await box.press('Enter');
  await expect(page.getByRole('status')).toHaveText(/^Nothing found/);
  await box.fill(order);
  await box.press('Enter');
  await expect(page.getByRole('list', { name: 'Search results' }).getByRole('listitem')).toHaveCount(1);
});
