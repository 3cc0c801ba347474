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
import { shopperAtProcessor } from '../test-kit/connectors/shopper';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { BROWSER, CHALLENGE_CARD, FRICTIONLESS_CARD } from '../test-kit/fixtures/three-d-secure';
import { LIVE_BASE, type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { storedWebhook } from '../test-kit/webhooks';
import { oppClient } from './opp/client';

const LIVE_SUCCESS = '000.000.000';

interface Setup {
  readonly gw: TestGateway;
  readonly acquirer: TestGateway;
  readonly merchant: TestMerchant;
  readonly upstream: TestMerchant;
  readonly clock: FakeClock;
  /** A live merchant whose channel authenticates (3-D Secure on), as its account at the acquirer's system. */
  readonly authenticating: TestMerchant;
}

function liveFlows(setup: () => Setup) {
  const post = (path: string, params: Record<string, string>) => {
    const { gw, merchant } = setup();
    return gw.live.post(path, { entityId: merchant.entityId, ...params }, { token: merchant.token });
  };
  const post3ds = (path: string, params: Record<string, string>) => {
    const { gw, authenticating } = setup();
    return gw.live.post(
      path,
      { entityId: authenticating.entityId, ...params },
      { token: authenticating.token },
    );
  };
  const readPayment = (id: string, as = setup().merchant) =>
    setup().gw.live.get(`/v1/payments/${id}`, { entityId: as.entityId }, { token: as.token });
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

  it('a redirect brand (PAYPAL): pending on the gateway’s redirect, the provider approves, the shopper returns, 000.000.000', async () => {
    const paypal = await post('/v1/payments', {
      paymentBrand: 'PAYPAL',
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: 'https://shop.example/result',
    });
    expect(paypal.body.result.code, paypal.text).toBe('000.200.000');
    const { gw, acquirer } = setup();
    const back = await shopperAtProcessor(gw.live, acquirer, paypal.body.redirect, 'approve');
    expect(back.location).toMatch(/^https:\/\/shop\.example\/result\?id=/);
    const read = await readPayment(paypal.body.id);
    expect(read.body.result.code, read.text).toBe(LIVE_SUCCESS);
    expect(read.body.resultDetails.ConnectorTxID1).toBe(paypal.body.resultDetails.ConnectorTxID1);
  });

  it('3-D Secure on: an enrolled card’s challenge at the acquirer’s system, the shopper returns, 000.000.000 with its eci', async () => {
    const { gw, acquirer } = setup();
    const challenged = await post3ds('/v1/payments', {
      ...VISA_CARD,
      ...BROWSER,
      'card.number': CHALLENGE_CARD,
      amount: '20.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: 'https://shop.example/result',
    });
    expect(challenged.status, challenged.text).toBe(200);
    expect(challenged.body.result.code).toBe('000.200.000');
    // the gateway's own redirect, never the acquirer system's page directly
    expect(challenged.body.redirect.url).toBe(`${LIVE_BASE}/connectors/redirect`);
    const back = await shopperAtProcessor(gw.live, acquirer, challenged.body.redirect, 'approve');
    expect(back.location).toMatch(/^https:\/\/shop\.example\/result\?id=/);
    const read = await readPayment(challenged.body.id, setup().authenticating);
    expect(read.body.result.code, read.text).toBe(LIVE_SUCCESS);
    expect(read.body.threeDSecure).toMatchObject({ eci: '05', authenticationStatus: 'Y' });
    expect(read.body.threeDSecure.dsTransactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(read.body.redirect).toBeUndefined();
  });

  it('3-D Secure on: a challenged payment that registers the card along keeps the registration the acquirer’s system made, and a payment with it is charged there', async () => {
    const { gw, acquirer } = setup();
    const challenged = await post3ds('/v1/payments', {
      ...VISA_CARD,
      ...BROWSER,
      'card.number': CHALLENGE_CARD,
      amount: '12.00',
      currency: 'EUR',
      paymentType: 'DB',
      createRegistration: 'true',
      shopperResultUrl: 'https://shop.example/result',
    });
    expect(challenged.body.result.code, challenged.text).toBe('000.200.000');
    await shopperAtProcessor(gw.live, acquirer, challenged.body.redirect, 'approve');
    const read = await readPayment(challenged.body.id, setup().authenticating);
    expect(read.body.result.code, read.text).toBe(LIVE_SUCCESS);
    expect(read.body.registrationId).toMatch(/^[0-9a-f]{32}$/);
    const again = await post3ds(`/v1/registrations/${read.body.registrationId}/payments`, {
      amount: '12.00',
      currency: 'EUR',
      paymentType: 'DB',
      'standingInstruction.source': 'MIT',
      'standingInstruction.mode': 'REPEATED',
      'standingInstruction.type': 'UNSCHEDULED',
    });
    expect(again.body.result.code, again.text).toBe(LIVE_SUCCESS);
  });

  it('3-D Secure on: a frictionless enrolled card ends at once with its results', async () => {
    const db = await post3ds('/v1/payments', {
      ...VISA_CARD,
      ...BROWSER,
      'card.number': FRICTIONLESS_CARD,
      amount: '21.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: 'https://shop.example/result',
    });
    expect(db.body.result.code, db.text).toBe(LIVE_SUCCESS);
    expect(db.body.threeDSecure).toMatchObject({ authenticationStatus: 'Y', eci: '05' });
  });

  it('3-D Secure on: a failed challenge is the acquirer’s refusal, nothing charged', async () => {
    const { gw, acquirer } = setup();
    const challenged = await post3ds('/v1/payments', {
      ...VISA_CARD,
      ...BROWSER,
      'card.number': CHALLENGE_CARD,
      amount: '22.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: 'https://shop.example/result',
    });
    await shopperAtProcessor(gw.live, acquirer, challenged.body.redirect, 'decline');
    const read = await readPayment(challenged.body.id, setup().authenticating);
    expect(read.body.result.code, read.text).toBe('800.400.200');
  });

  it('stand-alone POST /v1/threeDSecure through the connector: the challenge, the return, its results', async () => {
    const { gw, acquirer } = setup();
    const asked = await post3ds('/v1/threeDSecure', {
      ...VISA_CARD,
      ...BROWSER,
      'card.number': CHALLENGE_CARD,
      amount: '20.00',
      currency: 'EUR',
      shopperResultUrl: 'https://shop.example/result',
    });
    expect(asked.body.result.code, asked.text).toBe('000.200.000');
    await shopperAtProcessor(gw.live, acquirer, asked.body.redirect, 'approve');
    const { authenticating } = setup();
    const read = await gw.live.get(
      `/v1/threeDSecure/${asked.body.id}`,
      { entityId: authenticating.entityId },
      { token: authenticating.token },
    );
    expect(read.body.result.code, read.text).toBe(LIVE_SUCCESS);
    expect(read.body.threeDSecure).toMatchObject({ authenticationStatus: 'Y', eci: '05' });
  });

  it('an abandoned redirect times out as in test mode (100.396.103), notified', async () => {
    const paypal = await post('/v1/payments', {
      paymentBrand: 'PAYPAL',
      amount: '11.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: 'https://shop.example/result',
    });
    expect(paypal.body.result.code, paypal.text).toBe('000.200.000');
    const { gw, clock, merchant } = setup();
    clock.advance(31 * 60_000);
    await gw.pending.runOnce();
    const read = await readPayment(paypal.body.id);
    expect(read.body.result.code, read.text).toBe('100.396.103');
    const told = (await gw.store.listDeliveries(merchant.merchantId, { limit: 100 }))
      .map(
        (d) =>
          d.notification as unknown as { action?: string; payload: { id: string; result: { code: string } } },
      )
      .filter((n) => n.payload.id === paypal.body.id)
      .map((n) => `${n.action} ${n.payload.result.code}`);
    expect(told).toContain('UPDATED 100.396.103');
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
  const upstream3ds = await acquirer.addMerchant({ channels: 1, settings: { threeDSecure: true } });
  const authenticating = await gw.addMerchant({
    channels: 1,
    mode: 'LIVE',
    settings: {
      threeDSecure: true,
      connector: {
        baseUrl: 'https://acquirer.test',
        entityId: upstream3ds.entityId,
        accessToken: upstream3ds.token,
      },
    },
  });
  await gw.store.insertWebhook(storedWebhook(merchant.merchantId, { createdAt: clock.now() }));
  return { gw, acquirer, merchant, upstream, clock, authenticating };
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
