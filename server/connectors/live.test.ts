/**
 * A live channel pays end to end through its connector: two gateways in process, the second
 * standing for the live acquirer's system (its test channel, reached through the first's
 * forwarding connector with the second app's fetch). Every flow a live merchant uses is answered
 * 000.000.000 on the live channel: a card debit, an authorisation with its capture and refund,
 * a registration and a payment with it, a checkout paid through its submission endpoint, and a
 * scheduled payment. The same on PostgreSQL. (A widget payment in Chromium on the live address,
 * over HTTPS, is e2e/flows/live.spec.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeClock, fakeClock } from '../test-kit/clock';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { oppClient } from './opp/client';

const LIVE_SUCCESS = '000.000.000';

interface Setup {
  readonly gw: TestGateway;
  readonly acquirer: TestGateway;
  readonly merchant: TestMerchant;
  readonly upstream: TestMerchant;
  readonly clock: FakeClock;
}

function liveFlows(setup: () => Setup) {
  const post = (path: string, params: Record<string, string>) => {
    const { gw, merchant } = setup();
    return gw.live.post(path, { entityId: merchant.entityId, ...params }, { token: merchant.token });
  };
  /** What the acquirer's system holds under its own id. */
  const upstreamPayment = (id: string) => {
    const { acquirer, upstream } = setup();
    return acquirer.get(`/v1/payments/${id}`, { entityId: upstream.entityId }, { token: upstream.token });
  };

  it('a card debit: 000.000.000, the acquirer system’s id kept as ConnectorTxID1', async () => {
    const db = await post('/v1/payments', {
      ...VISA_CARD,
      amount: '12.50',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(db.status, db.text).toBe(200);
    expect(db.body.result.code).toBe(LIVE_SUCCESS);
    expect(db.body.resultDetails).toMatchObject({ clearingInstituteName: 'Connector' });
    const theirs = db.body.resultDetails.ConnectorTxID1 as string;
    expect(theirs).toMatch(/^[0-9a-f]{32}$/);
    expect(theirs).not.toBe(db.body.id);
    const upstream = await upstreamPayment(theirs);
    expect(upstream.body).toMatchObject({ paymentType: 'DB', amount: '12.50', currency: 'EUR' });
    // the issuer data a live payment answers is the acquirer system's, never this gateway's simulator's
    expect(db.body.card.type).toBe(upstream.body.card.type);
  });

  it('everything the acquirer’s system says comes back: avs/cvv, card details, its code and reference, risk.score', async () => {
    const db = await post('/v1/payments', {
      ...VISA_CARD,
      amount: '7.00',
      currency: 'EUR',
      paymentType: 'DB',
      'billing.street1': '1 Test Street',
      'billing.postcode': 'TE1 2ST',
      'billing.city': 'Testville',
      'billing.country': 'GB',
    });
    expect(db.status, db.text).toBe(200);
    const theirs = await upstreamPayment(db.body.resultDetails.ConnectorTxID1);
    // what the acquirer's system answered, as the merchant sees it on the live payment
    expect(theirs.body.result).toMatchObject({ avsResponse: 'F', cvvResponse: 'M' });
    expect(db.body.result).toMatchObject({
      code: LIVE_SUCCESS,
      avsResponse: theirs.body.result.avsResponse,
      cvvResponse: theirs.body.result.cvvResponse,
    });
    expect(theirs.body.card.type).toBeDefined();
    expect(db.body.card).toMatchObject({
      bin: '420000',
      last4Digits: '0000',
      type: theirs.body.card.type,
      level: theirs.body.card.level,
      issuer: theirs.body.card.issuer,
    });
    expect(db.body.resultDetails).toMatchObject({
      AcquirerResponse: theirs.body.result.code,
      ConnectorTxID1: theirs.body.id,
      clearingInstituteName: 'Connector',
    });
    expect(theirs.body.risk.score).toBe('7');
    expect(db.body.risk).toMatchObject({ score: '7' });
  });

  it('a redirect brand is refused at once (600.200.201): the connector does not carry the shopper there yet', async () => {
    const paypal = await post('/v1/payments', {
      paymentBrand: 'PAYPAL',
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: 'https://shop.example/result',
    });
    expect(paypal.body.result.code, paypal.text).toBe('600.200.201');
    expect(paypal.body.redirect).toBeUndefined();
  });

  it('a declined card keeps the acquirer’s code', async () => {
    const declined = await post('/v1/payments', {
      ...VISA_CARD,
      'card.number': '4000000000000002',
      amount: '3.00',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(declined.status).toBe(400);
    expect(declined.body.result.code).toBe('800.100.151');
  });

  it('a PA, its capture and the capture’s refund: 000.000.000 each, forwarded by the connector’s ids', async () => {
    const pa = await post('/v1/payments', {
      ...VISA_CARD,
      amount: '40.00',
      currency: 'EUR',
      paymentType: 'PA',
    });
    expect(pa.body.result.code, pa.text).toBe(LIVE_SUCCESS);
    const cp = await post(`/v1/payments/${pa.body.id}`, {
      paymentType: 'CP',
      amount: '40.00',
      currency: 'EUR',
    });
    expect(cp.body.result.code, cp.text).toBe(LIVE_SUCCESS);
    const rf = await post(`/v1/payments/${cp.body.id}`, {
      paymentType: 'RF',
      amount: '15.00',
      currency: 'EUR',
    });
    expect(rf.body.result.code, rf.text).toBe(LIVE_SUCCESS);
    const upstreamRf = await upstreamPayment(rf.body.resultDetails.ConnectorTxID1);
    expect(upstreamRf.body).toMatchObject({
      paymentType: 'RF',
      amount: '15.00',
      referencedId: cp.body.resultDetails.ConnectorTxID1,
    });
  });

  it('a registration, and a payment with it', async () => {
    const rg = await post('/v1/registrations', VISA_CARD);
    expect(rg.status, rg.text).toBe(200);
    expect(rg.body.result.code).toBe(LIVE_SUCCESS);
    expect(rg.text).not.toContain('connectorRegistrationId');
    const paid = await post(`/v1/registrations/${rg.body.id}/payments`, {
      amount: '9.99',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.result.code).toBe(LIVE_SUCCESS);
    expect(paid.body.registrationId).toBe(rg.body.id);
  });

  it('a payment that registers the card along (createRegistration=true), and a payment with that registration', async () => {
    const db = await post('/v1/payments', {
      ...VISA_CARD,
      amount: '8.00',
      currency: 'EUR',
      paymentType: 'DB',
      createRegistration: 'true',
    });
    expect(db.body.result.code, db.text).toBe(LIVE_SUCCESS);
    expect(db.body.registrationId).toMatch(/^[0-9a-f]{32}$/);
    const again = await post(`/v1/registrations/${db.body.registrationId}/payments`, {
      amount: '8.00',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(again.body.result.code, again.text).toBe(LIVE_SUCCESS);
  });

  it('a checkout paid through its submission endpoint', async () => {
    const created = await post('/v1/checkouts', {
      amount: '25.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: 'https://shop.example/result',
    });
    expect(created.status, created.text).toBe(200);
    const { gw } = setup();
    const submitted = await gw.live.post(`/v1/checkouts/${created.body.id}/payment`, VISA_CARD);
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body.result.code).toBe(LIVE_SUCCESS);
    const status = await gw.live.get(
      `/v1/checkouts/${created.body.id}/payment`,
      { entityId: setup().merchant.entityId },
      { token: setup().merchant.token },
    );
    expect(status.body.result.code).toBe(LIVE_SUCCESS);
  });

  it('a scheduled payment: created and run through the connector', async () => {
    const rg = await post('/v1/registrations', VISA_CARD);
    expect(rg.body.result.code, rg.text).toBe(LIVE_SUCCESS);
    const created = await post('/scheduling/v1/schedules', {
      registrationId: rg.body.id,
      amount: '5.00',
      currency: 'EUR',
      paymentType: 'DB',
      'job.expression': '0 * * * * ?',
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.result.code).toBe(LIVE_SUCCESS);
    const { gw, clock, merchant } = setup();
    clock.advance(60_000);
    expect(await gw.scheduler.runOnce()).toBeGreaterThanOrEqual(1);
    const shown = await gw.live.get(
      `/scheduling/v1/schedules/${created.body.id}`,
      { entityId: merchant.entityId },
      { token: merchant.token },
    );
    expect(shown.body.runs[0], shown.text).toMatchObject({
      status: 'EXECUTED',
      result: { code: LIVE_SUCCESS },
    });
  });
}

async function setUp(databaseUrl?: string): Promise<Setup> {
  // The live acquirer's system: another gateway of the family, its test channel.
  const acquirer = await testGateway();
  // its own risk score differs from this gateway's (no rules: "0"): payments without an e-mail score 7
  const upstream = await acquirer.addMerchant({
    channels: 1,
    settings: { risk: { scoring: { missingEmail: 7 } } },
  });
  const clock = fakeClock();
  const gw = await testGateway({
    clock,
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    connector: oppClient({ fetch: (url, init) => acquirer.app.request(url, init) }),
    scheduler: { autoStart: false },
    pending: { autoStart: false },
    notifier: { autoStart: false },
    webhooks: { autoStart: false },
  });
  const merchant = await gw.addMerchant({
    channels: 1,
    mode: 'LIVE',
    settings: {
      connector: {
        baseUrl: 'https://acquirer.test',
        entityId: upstream.entityId,
        accessToken: upstream.token,
      },
    },
  });
  return { gw, acquirer, merchant, upstream, clock };
}

describe('a live channel with a connector pays end to end (SQLite)', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp();
  });
  afterAll(async () => {
    await setup?.gw.cleanup();
    await setup?.acquirer.cleanup();
  });
  liveFlows(() => setup);

  it('a live channel without a connector is refused 600.200.201, never simulated', async () => {
    const bare = await setup.gw.addMerchant({ channels: 1, mode: 'LIVE' });
    const db = await setup.gw.live.post(
      '/v1/payments',
      { entityId: bare.entityId, ...VISA_CARD, amount: '1.00', currency: 'EUR', paymentType: 'DB' },
      { token: bare.token },
    );
    expect(db.body.result.code).toBe('600.200.201');
  });
});

const pgUnavailable = postgresUnavailableReason();

describe.skipIf(pgUnavailable !== undefined)(
  'a live channel with a connector pays end to end (PostgreSQL)',
  () => {
    let cluster: PostgresCluster | undefined;
    let setup: Setup;
    beforeAll(async () => {
      cluster = await startPostgres();
      setup = await setUp(cluster.url);
    }, 120_000);
    afterAll(async () => {
      await setup?.gw.cleanup();
      await setup?.acquirer.cleanup();
      await cluster?.stop();
    }, 60_000);
    liveFlows(() => setup);
  },
);
