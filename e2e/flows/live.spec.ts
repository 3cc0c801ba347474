/**
 * A checkout paid in Chromium on the live address: the harness's live merchant (a live channel
 * whose connector forwards to the live acquirer's system, played by a test account on the
 * gateway's test address) has its own shop, which creates the checkout on
 * https://127.0.0.1:<live port> (a self-signed certificate, accepted in this file only). The
 * widget script, its session, the card frames, the logos and the submission all come from the live
 * address and nothing from the test address; the shop's result page shows 000.000.000; the live
 * payment is readable on the live address with the live token, and the acquirer's system holds
 * it under the connector's id. A declined card keeps the acquirer's code.
 */
import type { Page } from '@playwright/test';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';
import { type Answer, checkoutStatus, paymentStatus } from '../support/gateway';

// The live address's certificate is the harness's throwaway self-signed one.
test.use({ ignoreHTTPSErrors: true });

const LIVE_SUCCESS = '000.000.000';

/** The origin of every request the page (any of its frames) makes, from now on. */
function requestOrigins(page: Page): Set<string> {
  const origins = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
  });
  return origins;
}

test('a card paid through the widget on the live address: 000.000.000, the payment on the acquirer’s system', async ({
  shop,
  card,
  result,
  page,
  request,
  harness,
}) => {
  const { live } = harness;
  const liveOrigin = new URL(live.gatewayUrl).origin;
  const shopOrigin = new URL(live.shopUrl).origin;
  expect(liveOrigin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const origins = requestOrigins(page);
  const script = page.waitForResponse((r) => r.url().includes('/v1/paymentWidgets.js'));
  const liveShop = shop.at(live.shopUrl);
  await liveShop.open();
  await card.ready();

  // The widget script: from the live address, over TLS with the harness's certificate.
  const scriptResponse = await script;
  expect(new URL(scriptResponse.url()).origin).toBe(liveOrigin);
  const tls = await scriptResponse.securityDetails();
  expect(tls?.protocol).toMatch(/^TLS/);
  expect(tls?.subjectName).toBe('127.0.0.1');
  // The card frames: served by the live address.
  for (const frame of [card.numberFrame, card.cvvFrame]) {
    expect(new URL((await frame.getAttribute('src'))!).origin).toBe(liveOrigin);
  }
  const frameOrigins = page
    .frames()
    .filter((f) => f !== page.mainFrame())
    .map((f) => new URL(f.url()).origin);
  expect(frameOrigins.length).toBeGreaterThanOrEqual(2);
  expect(new Set(frameOrigins)).toEqual(new Set([liveOrigin]));

  await card.fill(TEST_CARD);
  await card.expectLogo('Visa');
  expect(new URL((await card.logo.getAttribute('src'))!).origin).toBe(liveOrigin);
  const checkoutId = await liveShop.checkoutId();
  await card.pay();

  // Back on the live shop's result page (the form's action), which read the live address.
  await result.expectOutcome('success', LIVE_SUCCESS);
  expect(new URL(page.url()).origin).toBe(shopOrigin);
  expect(page.url()).toBe(liveShop.resultUrl(checkoutId));
  // Everything the browser fetched came from the shop or the live address: nothing from the test one.
  expect([...origins].sort()).toEqual([shopOrigin, liveOrigin].sort());
  expect(origins).not.toContain(new URL(harness.gatewayUrl).origin);

  // The live merchant reads its payment on the live address with its live token…
  const status = await checkoutStatus(request, live, checkoutId);
  expect(status.result?.code).toBe(LIVE_SUCCESS);
  const paymentId = (await result.paymentId.textContent())!;
  expect(paymentId).toBe(status.id);
  const payment = await paymentStatus(request, live, paymentId);
  expect(payment).toMatchObject({
    paymentType: 'DB',
    paymentBrand: 'VISA',
    amount: '92.00',
    currency: 'EUR',
    result: { code: LIVE_SUCCESS },
    resultDetails: { clearingInstituteName: 'Connector' },
  });
  // …and only there: the test address refuses the live token (800.900.300, HTTP 403).
  const fromTest = await request.get(
    `${harness.gatewayUrl}/v1/payments/${paymentId}?entityId=${live.entityId}`,
    { headers: { authorization: `Bearer ${live.accessToken}` } },
  );
  expect(fromTest.status()).toBe(403);
  expect(((await fromTest.json()) as Answer).result?.code).toBe('800.900.300');

  // The acquirer's system holds it under the connector's id (its own test success).
  const theirs = payment.resultDetails?.ConnectorTxID1;
  expect(theirs).toMatch(/^[0-9a-f]{32}$/);
  expect(theirs).not.toBe(paymentId);
  const upstream = await paymentStatus(request, live.acquirer, theirs!);
  expect(upstream).toMatchObject({
    id: theirs,
    paymentType: 'DB',
    paymentBrand: 'VISA',
    amount: '92.00',
    currency: 'EUR',
    result: { code: '000.100.110' },
  });
});

test('a card the acquirer declines on the live address: the decline on the form, its code kept, then paid', async ({
  shop,
  card,
  result,
  page,
  harness,
  request,
  browserErrors,
}) => {
  // The widget's submission of a declined card answers HTTP 400.
  browserErrors.allow(/Failed to load resource: the server responded with a status of 400/);
  const liveShop = shop.at(harness.live.shopUrl);
  await liveShop.open();
  await card.ready();
  // 4000000000000002: the acquirer's system declines it (800.100.151); the live answer keeps that code.
  await card.fill({ ...TEST_CARD, number: '4000000000000002' });
  const shopUrl = page.url();
  await card.pay();
  await expect(card.message).toHaveText(/The payment was declined/);
  await expect(card.payButton).toBeEnabled();
  expect(page.url()).toBe(shopUrl);
  const checkoutId = await liveShop.checkoutId();
  expect((await checkoutStatus(request, harness.live, checkoutId)).result?.code).toBe('800.100.151');

  await card.fillNumber(TEST_CARD.number);
  await card.fillCvv(TEST_CARD.cvv);
  await card.pay();
  await result.expectOutcome('success', LIVE_SUCCESS);
});
