import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopperAtProcessor } from '../../test-kit/connectors/shopper';
import { VISA_CARD_WITHOUT_HOLDER } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { connectorProcessor } from '../kit/processor';
import { oppClient } from './client';
import { oppConnector } from './connector';

describe('testMode=EXTERNAL through the forwarding connector', () => {
  let upstream: TestGateway;
  let gateway: TestGateway;
  let acquirer: TestMerchant;
  let merchant: TestMerchant;

  beforeAll(async () => {
    // The connector's other side: a second instance of this gateway, reached in process.
    upstream = await testGateway();
    acquirer = await upstream.addMerchant({ channels: 1 });
    gateway = await testGateway({
      connector: oppClient({ fetch: (url, init) => upstream.app.request(url, init) }),
    });
    merchant = await gateway.addMerchant({
      channels: 1,
      settings: {
        connector: {
          baseUrl: 'http://upstream.test/',
          entityId: acquirer.entityId,
          accessToken: acquirer.token,
        },
      },
    });
  });
  afterAll(async () => {
    await gateway.cleanup();
    await upstream.cleanup();
  });

  const post = (path: string, params: Record<string, string>) =>
    gateway.post(path, { entityId: merchant.entityId, ...params }, { token: merchant.token });

  it('forwards a PA, answers 000.100.112, and forwards its capture and refund', async () => {
    const pa = await post('/v1/payments', {
      ...VISA_CARD_WITHOUT_HOLDER,
      amount: '50.00',
      currency: 'EUR',
      paymentType: 'PA',
      testMode: 'EXTERNAL',
    });
    expect(pa.status).toBe(200);
    expect(pa.body.result.code).toBe('000.100.112');
    const upstreamId = pa.body.resultDetails.ConnectorTxID1;
    expect(upstreamId).toMatch(/^[0-9a-f]{32}$/);
    expect(upstreamId).not.toBe(pa.body.id);

    const upstreamPa = await upstream.get(
      `/v1/payments/${upstreamId}`,
      { entityId: acquirer.entityId },
      { token: acquirer.token },
    );
    expect(upstreamPa.body).toMatchObject({
      paymentType: 'PA',
      amount: '50.00',
      result: { code: '000.100.110' },
    });

    const cp = await post(`/v1/payments/${pa.body.id}`, {
      paymentType: 'CP',
      amount: '50.00',
      currency: 'EUR',
    });
    expect(cp.body.result.code).toBe('000.100.112');
    const rf = await post(`/v1/payments/${cp.body.id}`, {
      paymentType: 'RF',
      amount: '50.00',
      currency: 'EUR',
    });
    // The refund references our capture, which the connector knows by its own id.
    expect(rf.body.result.code).toBe('000.100.112');
  });

  it('a redirect brand through the connector: the provider’s page upstream, the shopper returns, 000.100.112', async () => {
    const paypal = await post('/v1/payments', {
      paymentBrand: 'PAYPAL',
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      testMode: 'EXTERNAL',
      shopperResultUrl: 'https://shop.example/result',
    });
    expect(paypal.body.result.code, paypal.text).toBe('000.200.000');
    const back = await shopperAtProcessor(gateway, upstream, paypal.body.redirect, 'approve');
    expect(back.location).toMatch(/^https:\/\/shop\.example\/result\?id=/);
    const read = await gateway.get(
      `/v1/payments/${paypal.body.id}`,
      { entityId: merchant.entityId },
      { token: merchant.token },
    );
    expect(read.body.result.code, read.text).toBe('000.100.112');
  });

  it('a redirect brand without a shopperResultUrl: 400 naming it, nothing sent', async () => {
    const paypal = await post('/v1/payments', {
      paymentBrand: 'PAYPAL',
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      testMode: 'EXTERNAL',
    });
    expect(paypal.status, paypal.text).toBe(400);
    expect(paypal.body.result.parameterErrors).toEqual([
      expect.objectContaining({ name: 'shopperResultUrl' }),
    ]);
  });

  it('a wallet token is opened here and forwarded as the decrypted-card variant: 000.100.112', async () => {
    const issued = await gateway.post('/simulators/wallets/token', {
      wallet: 'walletA',
      card: 'visa',
      entityId: merchant.entityId,
    });
    expect(issued.status, issued.text).toBe(200);
    const paid = await post('/v1/payments', {
      paymentBrand: 'WALLETA',
      'walletA.paymentToken': issued.body.paymentToken,
      amount: '15.00',
      currency: 'EUR',
      paymentType: 'DB',
      testMode: 'EXTERNAL',
    });
    expect(paid.body.result.code, paid.text).toBe('000.100.112');
    const theirs = await upstream.get(
      `/v1/payments/${paid.body.resultDetails.ConnectorTxID1}`,
      { entityId: acquirer.entityId },
      { token: acquirer.token },
    );
    // the upstream saw the card, its cryptogram and ECI, never the token issued for this gateway
    expect(theirs.body).toMatchObject({ paymentBrand: 'WALLETA', threeDSecure: { eci: expect.any(String) } });
    expect(theirs.text).not.toContain(issued.body.paymentToken);
  });

  it('passes the connector refusals through', async () => {
    const declined = await post('/v1/payments', {
      ...VISA_CARD_WITHOUT_HOLDER,
      amount: '5.00',
      currency: 'EUR',
      paymentType: 'DB',
      testMode: 'EXTERNAL',
      'customParameters[forceResultCode]': '800.100.151',
    });
    expect(declined.status).toBe(400);
    expect(declined.body.result.code).toBe('800.100.151');
  });

  it('answers 900.100.300 when the connector does not answer in time', async () => {
    const slow = oppClient({
      timeoutMs: 50,
      fetch: (_url, init) =>
        new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    });
    const reply = await slow.send(
      { baseUrl: 'http://x', entityId: 'e', accessToken: 't' },
      '/v1/payments',
      '',
    );
    expect(reply.code).toBe('900.100.300');
  });
});

describe('a pending answer of the connector', () => {
  it('is no success and leaves nobody waiting: 999.999.999 with the connector’s code kept', async () => {
    const processor = connectorProcessor(
      oppConnector(
        { send: async () => ({ code: '000.200.000', id: 'c0ffee' }) },
        { baseUrl: 'https://acquirer.example', entityId: 'e', accessToken: 't' },
      ),
      'LIVE',
    );
    const decision = await processor.pay({
      channel: {} as never,
      request: VISA_CARD_WITHOUT_HOLDER,
      decide: {} as never,
      now: new Date(),
    });
    expect(decision.code).toBe('999.999.999');
    expect(decision.resultDetails).toMatchObject({
      AcquirerResponse: '000.200.000',
      ConnectorTxID1: 'c0ffee',
    });
  });
});
