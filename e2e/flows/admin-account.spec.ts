/**
 * A dashboard user's own account and a channel's risk rules: a merchant admin the operator made
 * signs in, changes the password (a wrong current one refused), sets up TOTP, signs out and in
 * again with the new password and a code; then edits a channel's risk rules, refused with the
 * gateway's validation message first. The TOTP set-up's QR code at 1280 and 390 px, axe-clean
 * (every impact), its screenshot; an unknown address's page (NotFound). On a gateway of its own
 * requiring a second factor (startTestGateway, GATEWAY_ADMIN_REQUIRE_TOTP=on), a user without
 * one sees nothing but its set-up (and Sign out) until it is done.
 */
import { randomBytes } from 'node:crypto';
import { totpCode } from '../../server/security/totp';
import { startTestGateway } from '../kit/gateway';
import { AccountPage } from '../pages/admin/AccountPage';
import { AdminShell } from '../pages/admin/AdminShell';
import { HomePage } from '../pages/admin/HomePage';
import { pageShots } from '../pages/admin/pageShots';
import { SignInPage } from '../pages/admin/SignInPage';
import { UsersPage } from '../pages/admin/UsersPage';
import { expect, test } from '../support/fixtures';

// axe at two widths on every page, on two cores shared by many
test.setTimeout(240_000);

test('a new merchant admin changes the password, sets up TOTP, signs in with a code and edits risk rules', async ({
  page,
  harness,
  browserErrors,
}) => {
  // the signed-out session read, a refused password change, a sign-in waiting for its code, refused rules
  browserErrors.allow(/status of (400|401)/);
  const suffix = randomBytes(4).toString('hex');
  const user = { username: `admin-${suffix}`, password: `first-password-${suffix}` };
  const signIn = new SignInPage(page);
  const shell = new AdminShell(page);
  await signIn.open(harness.gatewayUrl);
  await signIn.signIn(harness.admin.operator.username, harness.admin.operator.password);
  await shell.go('Users', 'Users');
  await new UsersPage(page).create({ ...user, role: 'merchant-admin', merchantId: harness.admin.merchantId });
  await shell.signOut();

  await signIn.signIn(user.username, user.password);
  await shell.go('Account', 'Your account');
  const account = new AccountPage(page);
  await account.changePassword('not the password', 'a new password that is long');
  await expect(account.password.getByRole('alert')).toBeVisible();
  const next = `second-password-${suffix}`;
  await account.changePassword(user.password, next);
  await expect(account.password.getByRole('status')).toHaveText('Your password was changed.');

  const secret = await account.startTotp(next);
  // the key as a QR code for the app's camera, and its otpauth URI as text to copy
  await expect(account.totp.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expect(account.totp.locator('code.url')).toContainText(`otpauth://totp/`);
  await expect(account.totp.locator('code.url')).toContainText(`secret=${secret}`);
  await pageShots(page, 'account-totp-qr');
  await account.confirmTotp(totpCode(secret, new Date()));
  await expect(account.totp).toContainText('An authenticator app is set up');
  await shell.signOut();

  // the password alone is not enough any more: the code is asked for
  await signIn.username.fill(user.username);
  await signIn.password.fill(next);
  await signIn.submit.click();
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await shell.expectAccessible();
  // the next step's code: the one confirmed above is spent
  await code.fill(totpCode(secret, new Date(Date.now() + 30_000)));
  await signIn.submit.click();
  await expect(shell.signOutButton).toBeVisible();

  // an address the dashboard has no page for: said so, with the way back
  await page.goto(`${harness.gatewayUrl}/admin/#/no-such-page`);
  await shell.expectPage('Page not found');
  await pageShots(page, 'not-found');
  await page.getByRole('link', { name: 'Go to the start page' }).click();
  await new HomePage(page).expectShown();

  // the risk rules of the harness's quiet channel (nobody else pays there)
  await page.goto(`${harness.gatewayUrl}/admin/#/channels/${harness.admin.settledEntityId}`);
  await shell.expectPage('Channel Settled_Yesterday');
  const rules = page.getByLabel('Rules (JSON)');
  await rules.fill('{"blockedBins": ["12"], "blockedCardCountries": ["XX"]}');
  await page.getByRole('button', { name: 'Save risk rules' }).click();
  const refusal = page.getByRole('region', { name: 'Risk rules' }).getByRole('alert');
  await expect(refusal).toContainText('rules.blockedBins');
  await expect(refusal).toContainText('rules.blockedCardCountries');
  await expect(rules).toHaveAttribute('aria-invalid', 'true');
  await shell.expectAccessible();
  await rules.fill('{"blockedBins": ["999999"], "blockedCardCountries": ["KP"]}');
  await page.getByRole('button', { name: 'Save risk rules' }).click();
  await expect(page.getByRole('region', { name: 'Risk rules' }).getByRole('status')).toHaveText(
    'The risk rules were saved.',
  );
  await page.reload();
  await expect(page.getByLabel('Rules (JSON)')).toHaveValue(/999999/);

  // the admin manages the merchant's users: a viewer (no merchant to choose: the admin's own),
  // its password reset (shown once), then disabled
  await shell.go('Users', 'Users');
  const viewer = `viewer-of-${suffix}`;
  await new UsersPage(page).create({
    username: viewer,
    role: 'merchant-viewer',
    password: `viewer-password-${suffix}`,
  });
  const row = page.getByRole('row').filter({ hasText: viewer });
  await row.getByRole('button', { name: `Reset the password of ${viewer}` }).click();
  await shell.confirm('Reset password');
  await expect(row.getByRole('status').locator('output')).toHaveText(/\S{12,}/);
  await row.getByRole('button', { name: `Disable ${viewer}` }).click();
  await shell.confirm('Disable');
  await expect(row).toContainText('Disabled');
  await shell.expectAccessible();

  // by keyboard: the skip link (the page's first control) moves the focus to the page's content
  await page.getByRole('button', { name: 'Skip to content' }).focus();
  await expect(page.getByRole('button', { name: 'Skip to content' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  await shell.signOut();
});

test('a gateway requiring a second factor shows a user without one nothing but its set-up', async ({
  page,
  browserErrors,
}) => {
  // the signed-out session read
  browserErrors.allow(/status of 401/);
  const gateway = await startTestGateway({ env: { GATEWAY_ADMIN_REQUIRE_TOTP: 'on' } });
  try {
    const suffix = randomBytes(4).toString('hex');
    const user = { username: `first-step-${suffix}`, password: `only-a-password-${suffix}` };
    const made = await fetch(`${gateway.url}/admin/v1/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...user, role: 'operator' }),
    });
    expect(made.status, await made.text()).toBe(201);
    const signIn = new SignInPage(page);
    const shell = new AdminShell(page);
    await signIn.open(gateway.url);
    await signIn.username.fill(user.username);
    await signIn.password.fill(user.password);
    await signIn.submit.click();
    await shell.expectPage('Set up two-step sign-in');
    await expect(shell.nav).toHaveCount(0);
    // someone else at the desk, no phone at hand: signed out from the set-up, the session ended
    await shell.signOut();
    await page.reload();
    await expect(signIn.heading).toBeVisible();
    await signIn.username.fill(user.username);
    await signIn.password.fill(user.password);
    await signIn.submit.click();
    await shell.expectPage('Set up two-step sign-in');
    // another page asked for: still nothing but the set-up
    await page.goto(`${gateway.url}/admin/#/merchants`);
    await shell.expectPage('Set up two-step sign-in');
    await pageShots(page, 'totp-required');

    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Set up an authenticator' }).click();
    const key = page.locator('code.secret');
    await expect(key).toBeVisible();
    await page.getByLabel('Code from the app').fill(totpCode((await key.textContent())!.trim(), new Date()));
    await page.getByRole('button', { name: 'Confirm' }).click();
    // set up: the dashboard, at the page asked for
    await shell.expectPage('Merchants');
    await expect(shell.nav).toBeVisible();
  } finally {
    await gateway.stop();
  }
});
