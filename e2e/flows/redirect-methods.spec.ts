/**
 * Redirect methods through the real pages: the widget's brand button posts the brand, the gateway
 * answers pending with a redirect to the provider's page (the simulator's), and the shopper
 * approves, declines or cancels there. By default the whole page goes to the provider and the
 * gateway sends it back to the shop's result page; with preset `inline` (inlineFlow) the provider's
 * page opens in the widget's modal, and cancelling (at the provider or with the modal's close
 * button) brings the shopper back to the forms to choose another brand.
 */
import type { Page } from '@playwright/test';
import { TEST_CARD } from '../pages/CardForm';
import { ProviderPage } from '../pages/ProviderPage';
import { FAILED_RESULT_402 } from '../pages/ResultPage';
import { expect, test } from '../support/fixtures';
import { checkoutStatus, paymentStatus } from '../support/gateway';

/** errorMessages.paymentCancelled: both ways of cancelling say the same. */
const CANCELLED = 'The payment was cancelled. You can choose another payment method.';

/** The id of the payment the page's next submission creates (the brand forms post from the page). */
async function nextPaymentId(page: Page, submit: () => Promise<void>): Promise<string> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === 'POST' && /\/v1\/checkouts\/[^/]+\/payment$/.test(r.url()),
    ),
    submit(),
  ]);
  const body = (await response.json()) as { id?: string; result?: { code?: string } };
  expect(body.result?.code, 'the gateway answers pending').toBe('000.200.000');
  return body.id!;
}

test('PAYPAL approved at the provider (full-page redirect) pays', async ({
  shop,
  redirectForm,
  result,
  page,
  harness,
}) => {
  await shop.open({ brands: 'PAYPAL' });
  await expect(redirectForm.button('PAYPAL')).toHaveText('Pay with PayPal');
  await redirectForm.pay('PAYPAL');
  await page.waitForURL(`${harness.gatewayUrl}/simulators/redirect`);
  const provider = new ProviderPage(page);
  await provider.expectShown();
  await expect(provider.heading).toHaveText('Wallet (simulated login)');
  await provider.approve();
  await result.expectOutcome('success', '000.100.110');
});

test('KLARNA_PAYMENTS_PAYLATER declined at the provider: the shop reads 800.100.155', async ({
  shop,
  redirectForm,
  result,
  page,
  harness,
  browserErrors,
}) => {
  browserErrors.allow(FAILED_RESULT_402);
  await shop.open({ brands: 'KLARNA_PAYMENTS_PAYLATER' });
  await redirectForm.pay('KLARNA_PAYMENTS_PAYLATER');
  await page.waitForURL(`${harness.gatewayUrl}/simulators/redirect`);
  const provider = new ProviderPage(page);
  await provider.expectShown();
  await expect(provider.heading).toHaveText('Buy now, pay later (simulated provider)');
  await provider.decline();
  await result.expectOutcome('failed', '800.100.155');
});

test('SOFORT in the modal (preset inline): cancelled at the provider, then closed; the card then pays', async ({
  shop,
  card,
  redirectForm,
  modal,
  result,
  page,
  request,
  harness,
}) => {
  await shop.open({ preset: 'inline', brands: 'VISA SOFORTUEBERWEISUNG' });
  await card.ready();
  const checkoutId = await shop.checkoutId();
  const shopUrl = page.url();
  const sofort = redirectForm.button('SOFORTUEBERWEISUNG');

  // Twice: Cancel on the provider's page, then the modal's close button. Both bring the shopper
  // back to the forms with the same message, the focus on the brand's button.
  const attempts: string[] = [];
  for (const how of ['Cancel at the provider', 'close the modal'] as const) {
    attempts.push(await nextPaymentId(page, () => redirectForm.pay('SOFORTUEBERWEISUNG')));
    await modal.expectOpen('Pay with Sofort');
    const provider = modal.provider();
    await provider.expectShown();
    await expect(provider.heading).toHaveText('Online bank transfer (simulated bank)');
    if (how === 'Cancel at the provider') await provider.cancel();
    else await modal.close();
    await modal.expectClosed();
    expect(page.url(), how).toBe(shopUrl);
    await expect(redirectForm.message('SOFORTUEBERWEISUNG'), how).toHaveText(CANCELLED);
    await expect(sofort, how).toBeEnabled();
    await expect(sofort, how).toBeFocused();
  }
  const [cancelled, closed] = attempts as [string, string];
  // The provider's Cancel ended the first; closing the modal told the gateway nothing.
  expect((await paymentStatus(request, harness, cancelled)).result?.code).toBe('100.396.101');
  expect((await paymentStatus(request, harness, closed)).result?.code).toBe('000.200.000');

  // Another brand: the card. The submission cancels the payment still pending first.
  await card.fill(TEST_CARD);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');

  const status = await checkoutStatus(request, harness, checkoutId);
  expect(status).toMatchObject({ paymentBrand: 'VISA', result: { code: '000.100.110' } });
  expect(attempts).not.toContain(status.id);
  for (const id of attempts) {
    expect(await paymentStatus(request, harness, id)).toMatchObject({
      paymentBrand: 'SOFORTUEBERWEISUNG',
      result: { code: '100.396.101' },
    });
  }
});
