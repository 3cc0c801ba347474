/**
 * An uncertain registration through a chain of two gateways of this project (issue 32): the
 * gateway's channel forwards to an upstream test-kit gateway (the opp connector), and the
 * registration's answer is lost on the way back (server/test-kit/faults/chain.ts).
 *
 * - While it is pending (or once its inquiry found it never made) the public checkout session does
 *   not offer it for one-click, and a one-click submission naming it answers the API's own refusal
 *   (100.150.201 "not confirmed yet", 100.150.200 "does not exist"), before anything else is
 *   checked (the CVV the channel asks for).
 * - The pending-payments worker asks the upstream's Query API by the gateway's registration id,
 *   which the upstream knows as that registration's merchantTransactionId: it finds the upstream's
 *   registration (RG), the registration ends successful with it, and a payment with it works,
 *   through the API and one-click alike. Lost before the upstream had it, it ends as never made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayChain, gatewayChain } from '../../test-kit/faults/chain';
import { VISA_CARD_WITHOUT_CVV } from '../../test-kit/fixtures/cards';

describe('an uncertain registration through a chain of two gateways', () => {
  let chain: GatewayChain;
  beforeAll(async () => {
    // the channel asks for a stored card's CVV: a refusal must come before that check
    chain = await gatewayChain({ registrationsRequireCvv: true });
  });
  afterAll(() => chain.cleanup());

  const api = (path: string, params: Record<string, string> = {}) =>
    chain.gateway.post(
      path,
      { entityId: chain.merchant.entityId, ...params },
      { token: chain.merchant.token },
    );
  const register = async (fault: 'none' | 'answer-lost' | 'never-sent') => {
    chain.lose(fault);
    const res = await api('/v1/registrations', { testMode: 'EXTERNAL', ...VISA_CARD_WITHOUT_CVV });
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe(fault === 'none' ? '000.100.112' : '000.200.000');
    return res.body.id as string;
  };
  const codeOf = async (id: string): Promise<string> => {
    const res = await chain.gateway.get(
      `/v1/registrations/${id}`,
      { entityId: chain.merchant.entityId },
      { token: chain.merchant.token },
    );
    return res.body.result.code;
  };
  const settled = (id: string) => chain.settle(async () => (await codeOf(id)) !== '000.200.000');
  const payment = { amount: '12.34', currency: 'EUR', paymentType: 'DB', testMode: 'EXTERNAL' };
  const checkout = async (...registrations: string[]) => {
    const res = await api('/v1/checkouts', {
      ...payment,
      ...Object.fromEntries(registrations.map((id, i) => [`registrations[${i}].id`, id])),
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id as string;
  };
  /** The widget's reads and posts: no credentials. */
  const offered = async (checkoutId: string) =>
    (
      (await chain.gateway.get(`/v1/checkouts/${checkoutId}/session`)).body.registrations as { id: string }[]
    ).map((r) => r.id);
  const oneClick = (checkoutId: string, params: Record<string, string>) =>
    chain.gateway.post(`/v1/checkouts/${checkoutId}/payment`, params);

  it('a pending registration is not offered for one-click, and naming it answers the API’s refusal', async () => {
    const usable = await register('none');
    const pending = await register('answer-lost');
    const id = await checkout(pending, usable);
    expect(await offered(id)).toEqual([usable]);

    const byApi = await api(`/v1/registrations/${pending}/payments`, payment);
    expect(byApi.status).toBe(400);
    expect(byApi.body.result.code).toBe('100.150.201');
    // without the CVV the channel asks for, and with it: the same refusal, nothing charged
    for (const extra of [{}, { 'card.cvv': '123' }] as Record<string, string>[]) {
      const clicked = await oneClick(id, { registrationId: pending, ...extra });
      expect(clicked.status, clicked.text).toBe(400);
      expect(clicked.body.result.code).toBe('100.150.201');
    }
  });

  it('its answer lost, the inquiry finds the upstream’s registration: it ends successful and pays', async () => {
    const id = await register('answer-lost');
    await settled(id);
    expect(await codeOf(id)).toBe('000.100.112');
    // made once upstream: the Query API there finds exactly one registration of this reference
    const upstream = await chain.upstream.get(
      '/v1/query',
      { entityId: chain.acquirer.entityId, merchantTransactionId: id },
      { token: chain.acquirer.token },
    );
    expect(upstream.body.payments.map((p: { paymentType: string }) => p.paymentType)).toEqual(['RG']);

    const paid = await api(`/v1/registrations/${id}/payments`, payment);
    expect(paid.body.result.code, paid.text).toBe('000.100.112');
    expect(paid.body.resultDetails.ConnectorTxID1).toMatch(/^[0-9a-f]{32}$/);

    // and now one-click offers it and pays with it
    const checkoutId = await checkout(id);
    expect(await offered(checkoutId)).toEqual([id]);
    const clicked = await oneClick(checkoutId, { registrationId: id, 'card.cvv': '123' });
    expect(clicked.body.result.code, clicked.text).toBe('000.100.112');
  });

  it('lost before the upstream had it, it ends never made: not offered, refused as the API refuses', async () => {
    const id = await register('never-sent');
    const checkoutId = await checkout(id);
    await settled(id);
    expect(await codeOf(id)).not.toMatch(/^000\.(100|200)\./);
    expect(await offered(checkoutId)).toEqual([]);
    const byApi = await api(`/v1/registrations/${id}/payments`, payment);
    expect(byApi.body.result.code).toBe('100.150.200');
    const clicked = await oneClick(checkoutId, { registrationId: id });
    expect(clicked.status).toBe(400);
    expect(clicked.body.result.code).toBe('100.150.200');
    // a new checkout cannot offer it (a pending one it may: it can be confirmed before the shopper picks)
    const offering = await api('/v1/checkouts', { ...payment, 'registrations[0].id': id });
    expect(offering.status).toBe(400);
    expect(offering.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual([
      'registrations[0].id',
    ]);
  });
});
