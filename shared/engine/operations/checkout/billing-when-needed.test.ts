/**
 * A checkout made with `entityId, amount, currency, paymentType` only, on a channel that
 * authenticates shoppers (DECISIONS, "Widget and 3-D Secure v2 data"): nothing is asked up front.
 * A card that needs no authentication pays with the card alone; an enrolled card without the v2
 * billing fields is answered 400 naming exactly the missing ones, and the checkout stays open for
 * the corrected submission, which goes on to the challenge. Over HTTP, as the widget submits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE } from '../../../../server/openapi/samples';
import { parameterErrorNames as names } from '../../../../server/test-kit/answers';
import { fakeClock } from '../../../../server/test-kit/clock';
import { CARD_FIELDS } from '../../../../server/test-kit/fixtures/cards';
import { BILLING, CHALLENGE_CARD } from '../../../../server/test-kit/fixtures/three-d-secure';
import { type TestGateway, type TestMerchant, testGateway } from '../../../../server/test-kit/gateway';

/** The card as the widget submits it: no paymentBrand (detected), no credentials. */
const CARD = { ...CARD_FIELDS, 'card.cvv': '123' } as const;
const NOT_ENROLLED = '4200000000000000';
/** What the widget always sends of the shopper's browser. */
const BROWSER = SAMPLE.browser;

describe('a checkout without billing on a 3-D Secure channel (HTTP, SQLite)', () => {
  let gw: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway({ clock: fakeClock(), pending: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true } });
  });
  afterAll(() => gw.cleanup());

  /** What the shop pages send: entityId, amount, currency, paymentType, nothing else. */
  const checkout = async (): Promise<string> => {
    const res = await gw.post(
      '/v1/checkouts',
      { entityId: m.entityId, amount: '12.50', currency: 'EUR', paymentType: 'DB' },
      { token: m.token },
    );
    expect(res.status).toBe(200);
    return res.body.id;
  };
  const submit = (id: string, params: Record<string, string>) =>
    gw.post(`/v1/checkouts/${id}/payment`, params);
  const session = (id: string) => gw.get(`/v1/checkouts/${id}/session`);

  it('the session names the fields an authenticated card would need, as a hint, not as required', async () => {
    const res = await session(await checkout());
    expect(res.status).toBe(200);
    expect(res.body.requiredBillingFields).toBeUndefined();
    expect(res.body.authenticationBillingFields).toEqual(['street1', 'city', 'postcode', 'country']);
  });

  it('a card that needs no authentication pays with the card and the browser alone: 000.100.110', async () => {
    const id = await checkout();
    const res = await submit(id, { ...CARD, 'card.number': NOT_ENROLLED, ...BROWSER });
    expect(res.status).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
    expect(res.body.billing).toBeUndefined();
  });

  it('an enrolled card without billing: 400 naming exactly the missing billing fields; the checkout stays open; resubmitted with them, the challenge follows', async () => {
    const id = await checkout();
    const refused = await submit(id, { ...CARD, 'card.number': CHALLENGE_CARD, ...BROWSER });
    expect(refused.status).toBe(400);
    expect(refused.body.result.code).toBe('200.300.404');
    expect(names(refused)).toEqual([
      'billing.city',
      'billing.country',
      'billing.postcode',
      'billing.street1',
    ]);
    for (const e of refused.body.result.parameterErrors) expect(e.message).toMatch(/3-D Secure v2/);

    const open = await session(id);
    expect(open.body.state).toBe('open');

    const corrected = await submit(id, { ...CARD, 'card.number': CHALLENGE_CARD, ...BROWSER, ...BILLING });
    expect(corrected.status).toBe(200);
    expect(corrected.body.result.code).toBe('000.200.000');
    expect(corrected.body.redirect.url).toMatch(/\/simulators\/acs\/challenge/);
  });

  it('without the browser either: the 400 names the browser fields too, and nothing else', async () => {
    const id = await checkout();
    const refused = await submit(id, { ...CARD, 'card.number': CHALLENGE_CARD });
    expect(refused.status).toBe(400);
    expect(names(refused)).toEqual([...Object.keys(BROWSER), ...Object.keys(BILLING)].sort());
  });
});
