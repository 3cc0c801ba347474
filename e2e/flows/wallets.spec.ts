/**
 * Wallets through the real pages: the widget's wallet button opens the simulated wallet sheet (a
 * gateway-origin document) in its modal; the sheet lists the simulator's test cards, collects the
 * billing address, gets a token from the gateway and hands it to the page, whose
 * onPaymentAuthorized decides. Fast checkout: a page without a checkout, the script pinned by its
 * SRI hash, createCheckout called on the click. And the redirect wallet WALLETD_CONTINUE.
 */

import { ProviderPage } from '../pages/ProviderPage';
import { JANE } from '../pages/WalletSheet';
import { seriousViolations } from '../support/axe';
import { expect, test } from '../support/fixtures';
import { checkoutStatus } from '../support/gateway';

/** What the shop logged of a callback's calls. */
const calls = (log: [string, unknown][], name: string) => log.filter(([n]) => n === name).map(([, v]) => v);

test('walletA in the simulated sheet: onPaymentAuthorized SUCCESS pays, 000.100.110', async ({
  page,
  shop,
  wallet,
  sheet,
  modal,
  result,
  request,
  harness,
}) => {
  // axe over the modal and the sheet's frame takes 10-15 s of a busy 2-core machine on its own
  test.slow();
  await shop.open({ brands: 'WALLETA', preset: 'walletA-success' });
  const checkoutId = await shop.checkoutId();
  await expect(wallet.button('WALLETA')).toHaveAccessibleName('Pay with Wallet A');
  await wallet.pay('WALLETA');
  await modal.expectOpen('Pay with Wallet A');
  await sheet.expectShown('Wallet A (simulated)');
  await expect(sheet.merchant).toHaveText('Pay Demo shop');
  await expect(sheet.items).toHaveText(['Subtotal€77.31', 'VAT€14.69']);
  await expect(sheet.total).toHaveText('€92.00');
  await expect(sheet.card('Visa •••• 0000')).toBeChecked();
  await sheet.fillBilling(JANE);
  await expect(sheet.payButton).toHaveText('Pay €92.00');
  // axe on the open modal, the sheet in its frame included.
  expect(await seriousViolations(page, '.wpwl-modal')).toEqual([]);
  await sheet.pay();
  await result.expectOutcome('success', '000.100.110');

  const status = await checkoutStatus(request, harness, checkoutId);
  expect(status).toMatchObject({ paymentBrand: 'WALLETA', result: { code: '000.100.110' } });
  const log = await shop.shopLog();
  expect(calls(log, 'onPaymentDataChanged')).toEqual([
    { callbackTrigger: 'INITIALIZE' },
    {
      callbackTrigger: 'BILLING_ADDRESS',
      billingAddress: { name: 'Jane Jones', postalCode: '10115', countryCode: 'DE' },
    },
  ]);
  const [authorized] = calls(log, 'onPaymentAuthorized') as [Record<string, unknown>];
  expect(authorized).toMatchObject({
    paymentMethodData: {
      type: 'CARD',
      description: 'Visa •••• 0000',
      info: { cardNetwork: 'VISA', cardDetails: '0000', cardType: 'CREDIT' },
      tokenizationData: { type: 'PAYMENT_GATEWAY', token: expect.any(String) },
    },
    billingAddress: { name: 'Jane Jones', postalCode: '10115', countryCode: 'DE' },
  });
});

test('walletA: onPaymentAuthorized ERROR keeps the sheet open with its message, and nothing is paid', async ({
  shop,
  wallet,
  sheet,
  modal,
  request,
  harness,
}) => {
  await shop.open({ brands: 'WALLETA', preset: 'walletA-error' });
  const checkoutId = await shop.checkoutId();
  await wallet.pay('WALLETA');
  await sheet.expectShown();
  await sheet.fillBilling(JANE);
  await sheet.pay();
  await expect(sheet.message).toHaveText('The shop cannot accept this card.');
  await expect(sheet.payButton).toBeEnabled();
  await modal.expectOpen('Pay with Wallet A');
  expect(calls(await shop.shopLog(), 'onPaymentAuthorized')).toHaveLength(1);
  expect((await checkoutStatus(request, harness, checkoutId)).result?.code).toBe('000.200.000');

  // Cancel in the sheet: back on the forms, the checkout still open.
  await sheet.cancel();
  await modal.expectClosed();
  await expect(wallet.message('WALLETA')).toHaveText(
    'The payment was cancelled. You can choose another payment method.',
  );
  await expect(wallet.button('WALLETA')).toBeEnabled();
  await expect(wallet.button('WALLETA')).toBeFocused();
});

test('fast checkout: createCheckout({brand}) on the click, its promise’s checkout paid through the sheet', async ({
  shop,
  wallet,
  sheet,
  result,
  page,
  request,
  harness,
}) => {
  await shop.openFast({ brands: 'WALLETA' });
  expect(
    await page.evaluate(() => (window as { wpwl?: { checkout?: { id?: string } } }).wpwl?.checkout?.id),
  ).toBe(undefined);
  const created = page.waitForResponse((r) =>
    r.url().startsWith(`${harness.shopUrl}/checkout?brand=WALLETA`),
  );
  await wallet.pay('WALLETA');
  const { id: checkoutId } = (await (await created).json()) as { id: string };
  await sheet.expectShown();
  await expect(sheet.total).toHaveText('€92.00');
  expect(calls(await shop.shopLog(), 'createCheckout')).toEqual([{ brand: 'WALLETA' }]);
  expect(await shop.checkoutId()).toBe(checkoutId);
  await sheet.fillBilling(JANE);
  await sheet.pay();
  await result.expectOutcome('success', '000.100.110');
  await expect(page).toHaveURL(shop.resultUrl(checkoutId));
  expect(await checkoutStatus(request, harness, checkoutId)).toMatchObject({
    paymentBrand: 'WALLETA',
    result: { code: '000.100.110' },
  });
});

test('fast checkout: createCheckout rejecting shows a clear message and leaves the page usable', async ({
  shop,
  wallet,
  modal,
}) => {
  await shop.openFast({ createCheckout: 'reject' });
  await wallet.pay('WALLETA');
  await expect(wallet.message('WALLETA')).toHaveText('The payment could not be started. Please try again.');
  await expect(wallet.button('WALLETA')).toBeEnabled();
  await expect(modal.modal).toHaveCount(0);
  await expect(shop.notice).toBeEmpty();
  // Usable: the next click asks the shop again.
  await wallet.pay('WALLETA');
  await expect
    .poll(async () => calls(await shop.shopLog(), 'createCheckout'))
    .toEqual([{ brand: 'WALLETA' }, { brand: 'WALLETA' }]);
  await expect(wallet.button('WALLETA')).toBeEnabled();
});

test('fast checkout with a wrong integrity value: the browser blocks the script, no widget starts', async ({
  shop,
  page,
  browserErrors,
}) => {
  // Chromium: "Failed to find a valid digest in the 'integrity' attribute for resource …"
  browserErrors.allow(/integrity/i);
  const blocked = page.waitForEvent('console', (m) => m.type() === 'error' && /integrity/i.test(m.text()));
  await page.goto(shop.fastUrl({ integrity: 'wrong' }));
  await blocked;
  await page.waitForLoadState('load');
  expect(await page.evaluate(() => 'wpwl' in window)).toBe(false);
  await expect(page.locator('.wpwl-widget, .wpwl-form')).toHaveCount(0);
  await expect(page.locator('form.paymentWidgets')).toHaveJSProperty('hidden', false);
  // The page's own options ran: only the widget was refused.
  expect(await page.evaluate(() => typeof (window as { wpwlOptions?: unknown }).wpwlOptions)).toBe('object');
});

test('fast checkout, the redirect wallet WALLETD_CONTINUE: provider page, Approve, 000.100.110', async ({
  shop,
  redirectForm,
  result,
  page,
  request,
  harness,
}) => {
  await shop.openFast({ brands: 'WALLETD_CONTINUE' });
  await expect(redirectForm.button('WALLETD_CONTINUE')).toHaveText('Pay with Wallet D');
  await redirectForm.pay('WALLETD_CONTINUE');
  await page.waitForURL(`${harness.gatewayUrl}/simulators/redirect`);
  const provider = new ProviderPage(page);
  await provider.expectShown();
  await expect(provider.heading).toHaveText('Wallet D (simulated login)');
  await provider.approve();
  await result.expectOutcome('success', '000.100.110');
  // The gateway sent the shopper to the shop's result page for the checkout createCheckout made.
  const checkoutId = new URL(page.url()).searchParams.get('id')!;
  expect(calls(await shop.shopLog(), 'createCheckout')).toEqual([{ brand: 'WALLETD_CONTINUE' }]);
  expect(await checkoutStatus(request, harness, checkoutId)).toMatchObject({
    paymentBrand: 'WALLETD_CONTINUE',
    result: { code: '000.100.110' },
  });
});
