/**
 * A channel's connector and routes in the dashboard: an operator sets a Stripe connector (the
 * harness's Stripe fake) with its API key, confirmed first; the notification address is shown
 * once and the key never again (not in the page, the field empty); "check the connection" says
 * what it found in words; two routes with rules are saved (confirmed) and listed in order with
 * each circuit's state; a route with a bad rule is refused with the field named. axe and
 * screenshots at 1280 and 390 px.
 */
import { randomBytes } from 'node:crypto';
import { AdminShell } from '../pages/admin/AdminShell';
import { adminApi, pageShots } from '../pages/admin/pageShots';
import { SignInPage } from '../pages/admin/SignInPage';
import { expect, test } from '../support/fixtures';

test.setTimeout(180_000);

test('an operator sets a channel’s connector and routes, checks the connection, never sees a key again', async ({
  page,
  harness,
  browserErrors,
}) => {
  // the signed-out session read; the route refused for its rule
  browserErrors.allow(/status of (400|401)/);
  const suffix = randomBytes(4).toString('hex');
  const apiKey = `sk_test_dashboard_${suffix}`;
  const stripe = harness.live.stripe.processorOrigin;
  const signIn = new SignInPage(page);
  const shell = new AdminShell(page);
  await signIn.open(harness.gatewayUrl);
  await signIn.signIn(harness.admin.operator.username, harness.admin.operator.password);
  await expect(shell.signOutButton).toBeVisible();
  const merchant = await adminApi<{ id: string }>(page, 'POST', '/merchants', { name: `Routed ${suffix}` });
  expect(merchant.status).toBe(201);
  const name = `Routed_${suffix}`;
  const channel = await adminApi<{ entityId: string }>(
    page,
    'POST',
    `/merchants/${merchant.body.id}/channels`,
    {
      name,
    },
  );
  expect(channel.status).toBe(201);
  const entityId = channel.body.entityId;
  await page.goto(`${harness.gatewayUrl}/admin/#/channels/${entityId}`);
  await shell.expectPage(`Channel ${name}`);
  const facts = page.locator('dl.facts');
  await expect(facts).toContainText('None (simulator)');

  // the connector: kind, address, the key (write-only), confirmed
  const connector = page.getByRole('region', { name: 'Connector' });
  await connector.getByLabel('Connector kind').selectOption('stripe');
  await connector.getByLabel('Processor URL').fill(stripe);
  await connector.getByLabel('API key').fill(apiKey);
  await connector.getByRole('button', { name: 'Save connector' }).click();
  await shell.confirm('Save connector');
  await expect(connector.getByLabel('Notification address for the processor')).toContainText(
    `/connectors/stripe/notifications/${entityId}`,
  );
  await expect(facts).toContainText(`Stripe at ${stripe}`);
  await expect(connector.getByLabel('API key')).toHaveValue('');
  await expect(page.locator('body')).not.toContainText(apiKey);

  // check the connection: what it found, in words
  await connector.getByRole('button', { name: 'Check the connection' }).click();
  await expect(connector.getByRole('status').filter({ hasText: `stripe at ${stripe}` })).toBeVisible();

  // the routes: two in order, the first for EUR up to 1000.00
  const routes = page.getByRole('region', { name: 'Change the routes' });
  await routes.getByRole('button', { name: 'Add a route' }).click();
  await routes.getByRole('button', { name: 'Add a route' }).click();
  for (const [i, rules] of [
    ['1', { Currencies: 'EUR', 'Greatest amount (minor units)': '100000', 'Card countries': 'XX' }],
    ['2', {}],
  ] as const) {
    const route = routes.getByRole('group', { name: `Route ${i}` });
    await route.getByLabel('Connector kind').selectOption('stripe');
    await route.getByLabel('Processor URL').fill(stripe);
    await route.getByLabel('API key').fill(apiKey);
    for (const [label, value] of Object.entries(rules)) await route.getByLabel(label).fill(value);
  }
  await routes.getByRole('button', { name: 'Save routes' }).click();
  // XX is no country: refused inside the dialog, then the field named in the form
  const dialog = page.getByRole('dialog', { name: 'Save routes?' });
  await dialog.getByRole('button', { name: 'Save routes', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('routes.0.countries');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(routes.getByRole('group', { name: 'Route 1' }).getByLabel('Card countries')).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await routes.getByRole('group', { name: 'Route 1' }).getByLabel('Card countries').fill('DE AT');
  await routes.getByRole('button', { name: 'Save routes' }).click();
  await shell.confirm('Save routes');
  await expect(routes.getByRole('status')).toHaveText('The routes were saved.');
  const table = page.getByRole('table', { name: 'Routes, tried in order' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').nth(1)).toContainText(
    'card countries DE, AT; currencies EUR; up to 100000 minor units',
  );
  await expect(table.getByRole('row').nth(1)).toContainText('Closed (in use)');
  await expect(table.getByRole('row').nth(2)).toContainText('Any payment');
  await expect(page.locator('body')).not.toContainText(apiKey);
  await pageShots(page, 'channel-connectors');
});
