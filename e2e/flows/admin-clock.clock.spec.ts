/**
 * The dashboard's test-clock page on the harness's gateway on the test clock (GATEWAY_TEST_CLOCK;
 * the `clock` project, one test at a time: its time only moves forward): an operator sees the
 * gateway's time, advances it by durations, sets it to a time past a checkout's expiry and sees
 * what ran (the checkout expired), is refused a time already past with the field named; the
 * banner follows the clock. Each move stays under a session's idle time: sessions run on the
 * gateway's clock too. axe and screenshots at 1280 and 390 px.
 */
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { AdminShell } from '../pages/admin/AdminShell';
import { pageShots } from '../pages/admin/pageShots';
import { SignInPage } from '../pages/admin/SignInPage';
import { test } from '../support/fixtures';

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

const MINUTE = 60_000;

/** The page's gateway time (its <time datetime>), as an instant. */
const shownTime = async (page: Page) =>
  Date.parse((await page.locator('.summary time').getAttribute('datetime')) ?? '');

test('an operator shows, advances and sets the test clock, and sees what ran', async ({
  page,
  harness,
  browserErrors,
}) => {
  // the signed-out session read; the move to a past time, refused
  browserErrors.allow(/status of (400|401)/);
  const { gatewayUrl, adminToken, entityId, accessToken } = harness.clock;
  // an operator of its own on the clock's gateway, made with the operator's token
  const suffix = randomBytes(4).toString('hex');
  const user = { username: `clock-${suffix}`, password: `clock-password-${suffix}` };
  const made = await fetch(`${gatewayUrl}/admin/v1/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...user, role: 'operator' }),
  });
  expect(made.status, await made.clone().text()).toBe(201);
  // a checkout that expires 30 minutes after it was made
  const checkout = await fetch(`${gatewayUrl}/v1/checkouts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB' }),
  });
  expect(checkout.status, await checkout.clone().text()).toBe(200);

  const signIn = new SignInPage(page);
  const shell = new AdminShell(page);
  await signIn.open(gatewayUrl);
  await signIn.signIn(user.username, user.password);
  await shell.go('Test clock', 'Test clock');

  // show
  await expect(page.locator('.summary')).toContainText('Gateway time:');
  const start = await shownTime(page);
  expect(start).toBeGreaterThan(0);
  await pageShots(page, 'clock');

  // advance twice, each less than a session's idle time (sessions run on the gateway's clock too)
  const advance = page.getByRole('form', { name: 'Advance the clock' });
  const ran = page.getByRole('table', { name: 'What ran during the move' });
  const expired = ran.getByRole('row').filter({ hasText: 'Checkouts expired' }).getByRole('cell').nth(1);
  // the checkout's 30 minutes end during one of the three moves (the clock may run between them)
  let expiredCount = 0;
  for (const times of [1, 2]) {
    await advance.getByLabel('By').fill('14m');
    await advance.getByRole('button', { name: 'Advance' }).click();
    await expect(page.getByRole('status')).toContainText("The gateway's clock is now");
    await expect.poll(() => shownTime(page)).toBeGreaterThanOrEqual(start + times * 14 * MINUTE);
    await expect(ran).toBeVisible();
    expiredCount += Number(await expired.textContent());
  }
  await pageShots(page, 'clock-moved');

  // set: past the checkout's expiry (30 minutes after it was made), and what ran on the way
  const target = new Date(start + 31 * MINUTE);
  target.setUTCMilliseconds(0);
  const set = page.getByRole('form', { name: 'Set the clock' });
  await set.getByLabel('To').fill(target.toISOString());
  await set.getByRole('button', { name: 'Set' }).click();
  await expect.poll(() => shownTime(page)).toBeGreaterThanOrEqual(target.getTime());
  expiredCount += Number(await expired.textContent());
  expect(expiredCount, 'the checkout expired during the moves').toBeGreaterThanOrEqual(1);
  // the banner reads the same clock
  await expect(page.locator('.banner')).toContainText(String(target.getUTCFullYear()));

  // a time already past: refused, the field named
  await set.getByLabel('To').fill('2020-01-01T00:00:00Z');
  await set.getByRole('button', { name: 'Set' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  expect(await shownTime(page)).toBeGreaterThanOrEqual(target.getTime());
});
