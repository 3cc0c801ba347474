/**
 * 3-D Secure through the Adyen and the Stripe connectors, in Chromium (issue 33): the harness's
 * live channels with 3-D Secure on whose connectors point at the fakes (support/connector-fakes.ts).
 * The widget on the live shop pays with each processor's challenged test card; the processor's own
 * 3-D Secure page (the fake's) opens in the widget's modal, the shopper confirms there, the
 * processor sends them back to the live address's return, the shop's result page shows
 * 000.000.000, and the live payment reads the same with the processor's 3-D Secure results.
 */
import type { Card } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';
import { checkoutStatus, paymentStatus } from '../support/gateway';
import type { LiveFakeChannel } from '../support/harness';

// The live address serves the harness's throwaway self-signed certificate.
test.use({ ignoreHTTPSErrors: true });

const LIVE_SUCCESS = '000.000.000';

interface Processor {
  readonly name: 'adyen' | 'stripe';
  /** The processor's test card its issuer challenges. */
  readonly card: Card;
  /** The confirming button's name on the processor's 3-D Secure page. */
  readonly confirm: RegExp;
}

const PROCESSORS: readonly Processor[] = [
  {
    name: 'adyen',
    // Adyen's 3-D Secure 2 Visa test card (03/2030, 737): its issuer challenges the shopper.
    card: { number: '4917610000000000', expiry: '03/30', cvv: '737', holder: 'Jane Shopper' },
    confirm: /^Authenticate$/,
  },
  {
    name: 'stripe',
    // Stripe's 4000 0000 0000 3220: 3-D Secure 2, a challenge always.
    card: { number: '4000000000003220', expiry: '12/34', cvv: '123', holder: 'Jane Shopper' },
    confirm: /^Complete$/,
  },
];

for (const processor of PROCESSORS) {
  test(`${processor.name}: a challenged card confirmed on ${processor.name}’s page in the widget modal, 000.000.000`, async ({
    shop,
    card,
    modal,
    result,
    page,
    request,
    harness,
  }) => {
    // The fakes check each request against the processor's published schema, compiled on the
    // first one: several seconds on a busy 2-core machine.
    test.slow();
    const channel: LiveFakeChannel = harness.live[processor.name];
    const liveShop = shop.at(channel.shopUrl);
    await liveShop.open();
    await card.ready();
    const checkoutId = await liveShop.checkoutId();
    await card.fill(processor.card);
    await card.pay();

    await modal.expectOpen('Pay with Visa');
    // The processor's own page, in the modal's frame (reached through the live /connectors/redirect).
    const confirm = modal.content.getByRole('button', { name: processor.confirm });
    await expect(confirm).toBeVisible();
    expect(
      page.frames().some((f) => f.url().startsWith(channel.processorOrigin)),
      'the page in the modal is the processor’s',
    ).toBe(true);
    await confirm.click();

    await result.expectOutcome('success', LIVE_SUCCESS);
    expect(page.url()).toBe(liveShop.resultUrl(checkoutId));
    const status = await checkoutStatus(request, channel, checkoutId);
    expect(status.result?.code).toBe(LIVE_SUCCESS);
    const payment = await paymentStatus(request, channel, status.id!);
    expect(payment).toMatchObject({
      paymentType: 'DB',
      paymentBrand: 'VISA',
      result: { code: LIVE_SUCCESS },
      resultDetails: { clearingInstituteName: 'Connector' },
    });
    // The processor's 3-D Secure results, in the family's names.
    expect(payment.threeDSecure?.authenticationStatus).toBe('Y');
    expect(payment.threeDSecure?.eci).toMatch(/^0[1-7]$/);
  });
}
