/**
 * 3-D Secure through a connector, in Chromium (issue 32): the harness's live channel with 3-D
 * Secure on (`harness.live.threeDSecure`) forwards to an upstream gateway of the family on HTTPS
 * whose channel authenticates. The enrolled card 4200 0000 0000 0042 is challenged on the
 * upstream's page (its simulator's issuer page, reached through the live address's
 * /connectors/redirect), the shopper answers it there, comes back through the live address's
 * return, lands on the shop's result page, and the live payment reads 000.000.000 with the
 * upstream's 3-D Secure results. Once in the widget's modal, once by full-page redirect.
 */
import type { Page } from '@playwright/test';
import { cards } from '../kit/cards';
import { CHALLENGE_CODE, ChallengePage } from '../pages/ChallengePage';
import { expect, test } from '../support/fixtures';
import { checkoutStatus, paymentStatus } from '../support/gateway';

// The live address and the upstream serve the harness's throwaway self-signed certificate.
test.use({ ignoreHTTPSErrors: true });

const LIVE_SUCCESS = '000.000.000';
const ENROLLED = cards.challenge;

/** The URLs of the top-level and framed documents the page loads from `origin`, from now on. */
function documentsFrom(page: Page, origin: string): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && new URL(request.url()).origin === origin)
      urls.push(request.url());
  });
  return urls;
}

test('an enrolled card challenged on the upstream’s page in the widget modal: the result page, 000.000.000 with its eci', async ({
  shop,
  card,
  modal,
  result,
  page,
  request,
  harness,
}) => {
  const live3ds = harness.live.threeDSecure;
  const upstreamOrigin = new URL(live3ds.upstream.gatewayUrl).origin;
  expect(upstreamOrigin).toMatch(/^https:\/\//);
  expect(ENROLLED.number).toBe('4200000000000042');
  const upstreamPages = documentsFrom(page, upstreamOrigin);
  const liveShop = shop.at(live3ds.shopUrl);
  await liveShop.open();
  await card.ready();
  const checkoutId = await liveShop.checkoutId();
  await card.fill(ENROLLED);
  await card.pay();

  await modal.expectOpen('Pay with Visa');
  const challenge = modal.challenge();
  await challenge.expectShown();
  // The issuer's page in the modal is the upstream's, not this gateway's simulator.
  expect(upstreamPages.length).toBeGreaterThan(0);
  await challenge.answer(CHALLENGE_CODE);

  await result.expectOutcome('success', LIVE_SUCCESS);
  expect(page.url()).toBe(liveShop.resultUrl(checkoutId));
  const status = await checkoutStatus(request, live3ds, checkoutId);
  expect(status.result?.code).toBe(LIVE_SUCCESS);
  const payment = await paymentStatus(request, live3ds, status.id!);
  expect(payment).toMatchObject({
    paymentType: 'DB',
    paymentBrand: 'VISA',
    result: { code: LIVE_SUCCESS },
    threeDSecure: { eci: '05', authenticationStatus: 'Y' },
    resultDetails: { clearingInstituteName: 'Connector' },
  });
  // The upstream holds the payment it authenticated, under the connector's id.
  const theirs = await paymentStatus(request, live3ds.upstream, payment.resultDetails!.ConnectorTxID1!);
  expect(theirs).toMatchObject({ result: { code: '000.100.110' }, threeDSecure: { eci: '05' } });
});

test('an enrolled card challenged by full-page redirect on the upstream’s page: back on the result page, 000.000.000', async ({
  shop,
  card,
  result,
  page,
  request,
  harness,
}) => {
  // The upstream's challenge page lets its form go only to itself and to the return address it
  // was given (CSP form-action), and Chrome checks every redirect of that post: the live
  // address's return therefore answers a page that moves on to the shop, not a 303.
  const live3ds = harness.live.threeDSecure;
  const upstreamOrigin = new URL(live3ds.upstream.gatewayUrl).origin;
  const liveShop = shop.at(live3ds.shopUrl);
  await liveShop.open({ preset: 'full-redirect' });
  await card.ready();
  const checkoutId = await liveShop.checkoutId();
  await card.fill(ENROLLED);
  await card.pay();

  // The top-level page goes from the live address (HTTPS) to the upstream's (HTTPS).
  await page.waitForURL((url) => url.origin === upstreamOrigin);
  const challenge = new ChallengePage(page);
  await challenge.expectShown();
  await challenge.answer(CHALLENGE_CODE);

  await page.waitForURL(/\/result\?/, { timeout: 10_000 });
  await result.expectOutcome('success', LIVE_SUCCESS);
  expect(new URL(page.url()).origin).toBe(new URL(live3ds.shopUrl).origin);
  const status = await checkoutStatus(request, live3ds, checkoutId);
  expect(status).toMatchObject({
    result: { code: LIVE_SUCCESS },
    threeDSecure: { eci: '05', authenticationStatus: 'Y' },
  });
});
