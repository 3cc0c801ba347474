/**
 * Processed once however often it arrives (DECISIONS, "Connectors and processors"; issue 33):
 * the processor's event key is recorded with the change it made, in its transaction, so the same
 * signed notification (Adyen's CAPTURE_FAILED, made by the fake of Adyen) sent again after the
 * gateway restarted, or to two gateway processes on one PostgreSQL at the same moment, fails the
 * capture once and tells the merchant once; every copy is acknowledged `[accepted]`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AdyenFake, startAdyenFake } from '../../test-kit/fakes/adyen/server';
import { ADYEN_VISA } from '../../test-kit/fakes/adyen/world';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { type PostgresCluster, startPostgres } from '../../test-kit/postgres';
import { describeDialects } from '../../test-kit/store-dialects';
import { storedWebhook } from '../../test-kit/webhooks';

const OPTIONS = { webhooks: { autoStart: false }, pending: { autoStart: false } } as const;

describeDialects('the same notification again (%s)', (dialect) => {
  let fake: AdyenFake;
  let cluster: PostgresCluster | undefined;
  let first: TestGateway;
  let merchant: TestMerchant;
  const open: TestGateway[] = [];

  /** Another gateway process on the store: the same folder after a restart, or the same PostgreSQL. */
  const gateway = async (dataDir?: string) => {
    const gw = await testGateway({
      ...OPTIONS,
      ...(cluster === undefined ? (dataDir === undefined ? {} : { dataDir }) : { databaseUrl: cluster.url }),
    });
    open.push(gw);
    return gw;
  };

  beforeAll(async () => {
    fake = await startAdyenFake();
    if (dialect === 'postgres') cluster = await startPostgres();
    first = await gateway();
    merchant = await first.addMerchant({
      channels: 1,
      mode: 'LIVE',
      settings: {
        connector: {
          kind: 'adyen',
          baseUrl: fake.baseUrl,
          apiKey: fake.apiKey,
          merchantAccount: fake.merchantAccount,
          hmacKey: fake.hmacKey,
        },
      },
    });
    await first.store.insertWebhook(storedWebhook(merchant.merchantId));
  }, 120_000);
  afterAll(async () => {
    for (const gw of open.reverse()) await gw.cleanup();
    await cluster?.stop();
    await fake?.close();
  }, 60_000);

  const post = (gw: TestGateway, path: string, params: Record<string, string>) =>
    gw.live.post(path, { entityId: merchant.entityId, ...params }, { token: merchant.token });
  const notify = (gw: TestGateway, body: string) =>
    gw.live.send('POST', `/connectors/adyen/notifications/${merchant.entityId}`, body, {
      headers: { 'Content-Type': 'application/json' },
    });
  const told = async (gw: TestGateway, id: string) =>
    (await gw.store.listDeliveries(merchant.merchantId, { limit: 500 }))
      .map(
        (d) =>
          d.notification as unknown as { action?: string; payload: { id: string; result: { code: string } } },
      )
      .filter((n) => n.payload.id === id)
      .map((n) => `${n.action} ${n.payload.result.code}`)
      .sort();

  /** A capture answered received on `gw`, and Adyen's CAPTURE_FAILED about it (not sent yet). */
  async function failedCapture(gw: TestGateway) {
    const pa = await post(gw, '/v1/payments', {
      ...ADYEN_VISA,
      amount: '5.00',
      currency: 'EUR',
      paymentType: 'PA',
    });
    const cp = await post(gw, `/v1/payments/${pa.body.id}`, {
      paymentType: 'CP',
      amount: '5.00',
      currency: 'EUR',
    });
    expect(cp.body.result.code, cp.text).toBe('000.000.000');
    return {
      cp: cp.body.id as string,
      body: fake.tellLater(cp.body.resultDetails.ConnectorTxID1, 'CAPTURE_FAILED'),
    };
  }

  it('after a restart: the copy is acknowledged and changes nothing', async () => {
    const { cp, body } = await failedCapture(first);
    expect([(await notify(first, body)).text]).toEqual(['[accepted]']);
    expect(await told(first, cp)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
    await first.close();
    const restarted = await gateway(cluster === undefined ? first.dataDir : undefined);
    const copy = await notify(restarted, body);
    expect([copy.status, copy.text]).toEqual([200, '[accepted]']);
    const read = await restarted.live.get(
      `/v1/query/${cp}`,
      { entityId: merchant.entityId },
      { token: merchant.token },
    );
    expect(read.body.result.code, read.text).toBe('700.400.100');
    expect(await told(restarted, cp)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
    first = restarted;
  });

  it('two copies at once (on PostgreSQL to two gateway processes): one change, both acknowledged', async () => {
    const other = cluster === undefined ? first : await gateway();
    const { cp, body } = await failedCapture(first);
    const answers = await Promise.all([notify(first, body), notify(other, body), notify(first, body)]);
    expect(answers.map((a) => [a.status, a.text])).toEqual(Array(3).fill([200, '[accepted]']));
    expect(await told(first, cp)).toEqual(['CREATED 000.000.000', 'UPDATED 700.400.100']);
  });
});
