/**
 * The widget never shows an amount it does not charge: with a checkout, its amount (and currency)
 * on the wallet sheet whatever the wallet block says; in fast checkout, a checkout whose amount is
 * not the one the page promised stops the payment with a clear message, and the next click pays
 * what is then shown. walletC shows the checkout's currency (ledgerCurrency is the merchant's
 * ledger) and its buttonColor values are styled.
 */

import { addPageOptions } from '../pages/PageOptions';
import { JANE } from '../pages/WalletSheet';
import { expect, test } from '../support/fixtures';
import { checkoutStatus } from '../support/gateway';

test('a checkout of 10.00 with walletA.amount 92.00: the sheet shows €10.00 and 10.00 is charged', async ({
  shop,
  wallet,
  sheet,
  result,
  request,
  harness,
}) => {
  await shop.open({ brands: 'WALLETA', preset: 'walletA-success', amount: '10.00' });
  const checkoutId = await shop.checkoutId();
  await wallet.pay('WALLETA');
  await sheet.expectShown('Wallet A (simulated)');
  await expect(sheet.total).toHaveText('€10.00');
  await sheet.fillBilling(JANE);
  await expect(sheet.payButton).toHaveText('Pay €10.00');
  await sheet.pay();
  await result.expectOutcome('success', '000.100.110');
  expect(await checkoutStatus(request, harness, checkoutId)).toMatchObject({
    amount: '10.00',
    currency: 'EUR',
    result: { code: '000.100.110' },
  });
});

test('fast checkout: createCheckout’s checkout of 10.00 against walletA.amount 92.00 stops with a message, nothing charged; the next click pays €10.00', async ({
  page,
  shop,
  wallet,
  sheet,
  modal,
  result,
  request,
  harness,
}) => {
  // The shop's backend makes the checkout for another amount than its page promised.
  await page.route(`${harness.shopUrl}/checkout?brand=*`, (route) =>
    route.continue({ url: `${route.request().url()}&amount=10.00` }),
  );
  await shop.openFast({ brands: 'WALLETA' });
  const created = page.waitForResponse((r) =>
    r.url().startsWith(`${harness.shopUrl}/checkout?brand=WALLETA`),
  );
  await wallet.pay('WALLETA');
  const { id: checkoutId } = (await (await created).json()) as { id: string };
  await expect(wallet.message('WALLETA')).toHaveText(
    'The amount to pay is now €10.00. Nothing has been charged: please check it and pay again.',
  );
  await expect(modal.modal).toHaveCount(0);
  await expect(wallet.button('WALLETA')).toBeEnabled();
  expect((await checkoutStatus(request, harness, checkoutId)).result?.code).toBe('000.200.000');
  expect(
    await page.evaluate(
      () => (window as { wpwl?: { checkout?: { amount?: string } } }).wpwl?.checkout?.amount,
    ),
  ).toBe('10.00');

  // Now the sheet shows what the checkout charges.
  await wallet.pay('WALLETA');
  await sheet.expectShown();
  await expect(sheet.total).toHaveText('€10.00');
  await sheet.fillBilling(JANE);
  await sheet.pay();
  await result.expectOutcome('success', '000.100.110');
  expect(await checkoutStatus(request, harness, checkoutId)).toMatchObject({
    amount: '10.00',
    result: { code: '000.100.110' },
  });
});

test('walletC: the checkout’s currency in the sheet despite ledgerCurrency USD; buttonColor LightGray and DarkGray styled', async ({
  page,
  shop,
  wallet,
  sheet,
}) => {
  await addPageOptions(page, { walletC: { ledgerCurrency: 'USD', buttonColor: 'DarkGray' } });
  await shop.open({ brands: 'WALLETC' });
  const button = wallet.button('WALLETC');
  await expect(button).toHaveClass(/wpwl-button-color-darkgray/);
  await expect(button).toHaveCSS('background-color', 'rgb(59, 74, 84)');
  await expect(button).toHaveCSS('color', 'rgb(255, 255, 255)');
  await wallet.pay('WALLETC');
  await sheet.expectShown('Wallet C (simulated)');
  await expect(sheet.total).toHaveText('€92.00');
  await sheet.cancel();

  await page.evaluate(() => (window as { wpwl?: { unload(): void } }).wpwl?.unload());
  await addPageOptions(page, { walletC: { buttonColor: 'LightGray' } });
  await shop.open({ brands: 'WALLETC' });
  await expect(wallet.button('WALLETC')).toHaveCSS('background-color', 'rgb(227, 230, 230)');
  await expect(wallet.button('WALLETC')).toHaveCSS('color', 'rgb(17, 17, 17)');
});
