/**
 * Risk checks end to end, through the public API: every rule of a channel's risk rules both ways (one
 * payment that passes, one that is rejected with the rule's result code), risk.score in the answers,
 * risk.channelId and risk.amount, velocity history (attempts, windows, hashed keys), registration
 * payments and checkout submissions, the stand-alone risk request (RE, RI), RISK notifications in the
 * outbox, and the CLI's setChannelRiskRules.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../shared/engine/core/ids';
import type { RiskRules } from '../../../shared/risk';
import { setChannelRiskRules } from '../../cli/risk-commands';
import { SQLITE_FILE } from '../../storage/open';
import { type FakeClock, fakeClock } from '../../test-kit/clock';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../../test-kit/postgres';

const VISA = {
  paymentBrand: 'VISA',
  'card.number': '4200000000000000', // BIN 420000, card country DE in the simulator's BIN table
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
} as const;
const MASTER = {
  ...VISA,
  paymentBrand: 'MASTER',
  'card.number': '5454545454545454', // BIN 545454, card country US
} as const;
const HOUR = 3_600_000;

describe('risk checks over HTTP', () => {
  let gw: TestGateway;
  let clock: FakeClock;

  beforeAll(async () => {
    clock = fakeClock();
    gw = await testGateway({
      clock,
      webhooks: { autoStart: false },
      notifier: { autoStart: false },
      pending: { autoStart: false },
    });
  });
  afterAll(() => gw.cleanup());

  /** A fresh merchant (its own velocity history) whose channel has these rules. */
  const withRules = (risk?: RiskRules, settings: Record<string, unknown> = {}) =>
    gw.addMerchant({ channels: 1, settings: { ...settings, ...(risk === undefined ? {} : { risk }) } });
  /** The customer group needs a name once any of its fields is sent. */
  const named = (params: Record<string, string>) =>
    Object.keys(params).some((k) => k.startsWith('customer.'))
      ? { 'customer.givenName': 'Jane', 'customer.surname': 'Jones', ...params }
      : params;
  const pay = (m: TestMerchant, params: Record<string, string>) =>
    gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...VISA,
        ...named(params),
      },
      { token: m.token },
    );
  const read = (m: TestMerchant, id: string) =>
    gw.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token: m.token });

  async function expectPasses(m: TestMerchant, params: Record<string, string>) {
    const res = await pay(m, params);
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
    expect(res.body.risk.score).toMatch(/^[+-]?[0-9]{1,5}$/);
    return res;
  }
  async function expectRejected(m: TestMerchant, params: Record<string, string>, code: string) {
    const res = await pay(m, params);
    expect(res.status, res.text).toBe(400);
    expect(res.body.result.code).toBe(code);
    expect(res.body.risk.score).toBe('100');
    expect(res.body.riskCheck).toBeUndefined();
    expect(res.body.redirect).toBeUndefined();
    return res;
  }

  describe('without rules', () => {
    it('screens nothing: risk.score "0"', async () => {
      const m = await withRules();
      const res = await expectPasses(m, { 'customer.email': 'jane@example.com' });
      expect(res.body.risk).toEqual({ score: '0' });
    });
  });

  describe('every rule, both ways', () => {
    it('blockedBins: 800.300.401', async () => {
      const m = await withRules({ blockedBins: ['420000'] });
      await expectRejected(m, {}, '800.300.401');
      await expectPasses(m, MASTER);
    });

    it('blockedBins with an 8-digit prefix', async () => {
      const m = await withRules({ blockedBins: ['42000000'] });
      await expectRejected(m, {}, '800.300.401');
      await expectPasses(m, { 'card.number': '4200000100000009' });
    });

    it('blockedCardCountries (the simulator BIN table): 800.300.102', async () => {
      const m = await withRules({ blockedCardCountries: ['DE'] });
      await expectRejected(m, {}, '800.300.102');
      await expectPasses(m, MASTER);
    });

    it('blockedBillingCountries: 800.300.102', async () => {
      const m = await withRules({ blockedBillingCountries: ['FR'] });
      await expectRejected(m, { 'billing.country': 'FR' }, '800.300.102');
      await expectPasses(m, { 'billing.country': 'DE' });
    });

    it('blockedIps, an address: 800.300.301', async () => {
      const m = await withRules({ blockedIps: ['203.0.113.7'] });
      await expectRejected(m, { 'customer.ip': '203.0.113.7' }, '800.300.301');
      await expectPasses(m, { 'customer.ip': '203.0.113.8' });
    });

    it('blockedIps, a CIDR range (IPv4 and IPv6): 800.300.301', async () => {
      const m = await withRules({ blockedIps: ['198.51.100.0/24', '2001:db8:abcd::/48'] });
      await expectRejected(m, { 'customer.ip': '198.51.100.200' }, '800.300.301');
      await expectRejected(m, { 'customer.ip': '2001:db8:abcd:1::5' }, '800.300.301');
      await expectPasses(m, { 'customer.ip': '198.51.101.1' });
      await expectPasses(m, { 'customer.ip': '2001:db8:abce::5' });
    });

    it('blockedEmails, case-insensitive: 800.300.200', async () => {
      const m = await withRules({ blockedEmails: ['fraud@example.com'] });
      await expectRejected(m, { 'customer.email': 'Fraud@Example.COM' }, '800.300.200');
      await expectPasses(m, { 'customer.email': 'jane@example.com' });
    });

    it('blockedEmailDomains, subdomains included: 800.300.200', async () => {
      const m = await withRules({ blockedEmailDomains: ['mailinator.com'] });
      await expectRejected(m, { 'customer.email': 'x@mail.mailinator.com' }, '800.300.200');
      await expectPasses(m, { 'customer.email': 'x@example.org' });
    });

    it('amountLimits.min: 100.550.312', async () => {
      const m = await withRules({ amountLimits: { EUR: { min: 100 } } });
      await expectRejected(m, { amount: '0.99' }, '100.550.312');
      await expectPasses(m, { amount: '1.00' });
    });

    it('amountLimits.max: 100.550.312; another currency has no limit', async () => {
      const m = await withRules({ amountLimits: { EUR: { max: 100_000 } } });
      await expectRejected(m, { amount: '1000.01' }, '100.550.312');
      await expectPasses(m, { amount: '1000.00' });
      await expectPasses(m, { amount: '5000.00', currency: 'USD' });
    });

    it('velocity maxCount per card: 800.120.101; another card, and the card after the window, pass', async () => {
      const m = await withRules({ velocity: [{ per: 'card', windowSeconds: 3600, maxCount: 2 }] });
      await expectPasses(m, {});
      await expectPasses(m, {});
      await expectRejected(m, {}, '800.120.101');
      await expectPasses(m, MASTER);
      clock.advance(HOUR + 1);
      await expectPasses(m, {});
    });

    it('velocity maxCount per e-mail (case-insensitive): 800.120.103', async () => {
      const m = await withRules({ velocity: [{ per: 'email', windowSeconds: 600, maxCount: 1 }] });
      await expectPasses(m, { 'customer.email': 'jane@example.com' });
      await expectRejected(m, { 'customer.email': 'JANE@example.com', ...MASTER }, '800.120.103');
      await expectPasses(m, { 'customer.email': 'john@example.com' });
    });

    it('velocity maxCount per IP: 800.120.102', async () => {
      const m = await withRules({ velocity: [{ per: 'ip', windowSeconds: 600, maxCount: 1 }] });
      await expectPasses(m, { 'customer.ip': '192.0.2.10' });
      await expectRejected(m, { 'customer.ip': '192.0.2.10', ...MASTER }, '800.120.102');
      await expectPasses(m, { 'customer.ip': '192.0.2.11' });
    });

    it('velocity maxVolume per card: 800.120.201 once the window holds the volume', async () => {
      const m = await withRules({
        velocity: [{ per: 'card', windowSeconds: 3600, maxVolume: { EUR: 5000 } }],
      });
      await expectPasses(m, { amount: '30.00' });
      await expectPasses(m, { amount: '20.00' });
      await expectRejected(m, { amount: '0.01' }, '800.120.201');
      await expectPasses(m, { amount: '0.01', currency: 'USD' });
    });

    it('velocity maxVolume per e-mail and per IP: 800.120.203, 800.120.202', async () => {
      const m = await withRules({
        velocity: [
          { per: 'email', windowSeconds: 3600, maxVolume: { EUR: 1000 } },
          { per: 'ip', windowSeconds: 3600, maxVolume: { EUR: 2000 } },
        ],
      });
      await expectPasses(m, {
        amount: '10.00',
        'customer.email': 'a@example.com',
        'customer.ip': '192.0.2.1',
      });
      await expectRejected(m, { amount: '0.01', 'customer.email': 'a@example.com' }, '800.120.203');
      await expectPasses(m, {
        amount: '10.00',
        'customer.email': 'b@example.com',
        'customer.ip': '192.0.2.1',
      });
      await expectRejected(m, { amount: '0.01', 'customer.ip': '192.0.2.1' }, '800.120.202');
    });

    it('scoring.threshold: 100.400.319 with the score reached; below it the score is answered', async () => {
      const m = await withRules({ scoring: { threshold: 50, missingEmail: 30, missingIp: 30 } });
      const rejected = await pay(m, {});
      expect(rejected.status).toBe(400);
      expect(rejected.body.result.code).toBe('100.400.319');
      expect(rejected.body.risk).toEqual({ score: '60' });
      const passed = await expectPasses(m, { 'customer.email': 'jane@example.com' });
      expect(passed.body.risk).toEqual({ score: '30' });
    });

    it('scoring by brand (risk.brand or paymentBrand), country mismatch and risk.parameters', async () => {
      const m = await withRules({
        scoring: {
          countryMismatch: 60,
          brands: { visa: 40 },
          parameters: [{ name: 'USER_DATA1', values: ['vip'], points: -50 }],
        },
      });
      expect((await expectPasses(m, { 'billing.country': 'DE' })).body.risk).toEqual({ score: '40' });
      const otherBrand = await expectPasses(m, { 'billing.country': 'FR', 'risk.brand': 'AMEX' });
      expect(otherBrand.body.risk).toEqual({ brand: 'AMEX', score: '60' });
      await expectRejected(m, { 'billing.country': 'FR' }, '100.400.319');
      const vouched = await expectPasses(m, {
        'billing.country': 'FR',
        'risk.parameters[USER_DATA1]': 'vip',
      });
      expect(vouched.body.risk).toEqual({ parameters: { USER_DATA1: 'vip' }, score: '50' });
    });

    it('risk.channelId selects a named rule set, which replaces the default; an unknown name keeps the default', async () => {
      const m = await withRules({
        blockedEmails: ['x@example.com'],
        ruleSets: { strict: { blockedBins: ['420000'] } },
      });
      await expectRejected(m, { 'risk.channelId': 'strict' }, '800.300.401');
      await expectPasses(m, { 'risk.channelId': 'strict', 'customer.email': 'x@example.com', ...MASTER });
      await expectRejected(m, { 'customer.email': 'x@example.com' }, '800.300.200');
      await expectPasses(m, {});
      await expectRejected(
        m,
        { 'risk.channelId': 'unknown', 'customer.email': 'x@example.com' },
        '800.300.200',
      );
    });

    it('risk.amount: smaller than the amount 100.550.605; it is the amount the limits screen', async () => {
      const m = await withRules({ amountLimits: { EUR: { max: 1500 } } });
      await expectRejected(m, { 'risk.amount': '5.00' }, '100.550.605');
      await expectRejected(m, { 'risk.amount': '20.00' }, '100.550.312');
      const passed = await expectPasses(m, { 'risk.amount': '15.00' });
      expect(passed.body.risk).toEqual({ amount: '15.00', score: '0' });
    });

    it('risk.amount that the currency cannot hold is a parameter error', async () => {
      const m = await withRules({ blockedBins: ['411111'] });
      const res = await pay(m, { amount: '10', currency: 'JPY', 'risk.amount': '10.50' });
      expect(res.status).toBe(400);
      expect(res.body.result.parameterErrors).toEqual([
        expect.objectContaining({ name: 'risk.amount', value: '10.50' }),
      ]);
    });
  });

  describe('rejections', () => {
    it('are stored and queryable with the code and risk.score, for PA, PA.CP and CD too', async () => {
      const m = await withRules({ blockedBins: ['420000'] });
      for (const paymentType of ['DB', 'PA', 'PA.CP', 'CD']) {
        const res = await expectRejected(m, { paymentType }, '800.300.401');
        const stored = await read(m, res.body.id);
        expect(stored.status).toBe(400);
        expect(stored.body).toMatchObject({
          id: res.body.id,
          paymentType,
          result: { code: '800.300.401' },
          risk: { score: '100' },
          card: { bin: '420000', last4Digits: '0000' },
        });
        expect(stored.body.riskCheck).toBeUndefined();
      }
      expect((await gw.paymentIds(m.merchantId)).length).toBe(4);
    });

    it('come before 3-D Secure and redirect methods: nobody is sent anywhere', async () => {
      const m = await withRules({ blockedEmailDomains: ['example.net'] });
      const res = await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '10.00',
          currency: 'EUR',
          paymentType: 'DB',
          paymentBrand: 'PAYPAL',
          ...named({ 'customer.email': 'jane@example.net' }),
          shopperResultUrl: 'https://shop.example/return',
        },
        { token: m.token },
      );
      expect(res.status, res.text).toBe(400);
      expect(res.body.result.code).toBe('800.300.200');
      expect(res.body.redirect).toBeUndefined();
      const clean = await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '10.00',
          currency: 'EUR',
          paymentType: 'DB',
          paymentBrand: 'PAYPAL',
          ...named({ 'customer.email': 'jane@example.org' }),
          shopperResultUrl: 'https://shop.example/return',
        },
        { token: m.token },
      );
      expect(clean.status).toBe(200);
      expect(clean.body.result.code).toBe('000.200.000');
      expect(clean.body.risk).toEqual({ score: '0' });
    });
  });

  describe('velocity history', () => {
    it('counts attempts the risk check let through, declined by the acquirer included; not its own rejections', async () => {
      const m = await withRules({ velocity: [{ per: 'card', windowSeconds: 600, maxCount: 2 }] });
      const declined = await pay(m, { 'customParameters[forceResultCode]': '800.100.151' });
      expect(declined.body.result.code).toBe('800.100.151');
      await expectPasses(m, {});
      clock.advance(300_000);
      // Rejections are not recorded: once the first two leave the window, the card passes again.
      await expectRejected(m, {}, '800.120.101');
      await expectRejected(m, {}, '800.120.101');
      clock.advance(300_001);
      await expectPasses(m, {});
    });

    it('keeps hashed keys only: no card number, e-mail or IP in risk_events', async () => {
      const m = await withRules({
        velocity: [
          { per: 'card', windowSeconds: 600, maxCount: 10 },
          { per: 'email', windowSeconds: 600, maxCount: 10 },
        ],
      });
      await expectPasses(m, { 'customer.email': 'secret.person@example.com', 'customer.ip': '192.0.2.99' });
      const db = new BetterSqlite3(join(gw.dataDir, SQLITE_FILE), { readonly: true });
      try {
        const rows = db
          .prepare('SELECT * FROM risk_events WHERE merchant_id = ? ORDER BY seq')
          .all(m.merchantId) as Record<string, unknown>[];
        expect(rows.map((r) => r.kind)).toEqual(['card', 'email', 'ip']);
        for (const row of rows) {
          expect(row).toMatchObject({ channel_id: m.entityId, amount: 1000, currency: 'EUR' });
          expect(row.value).toMatch(/^[0-9a-f]{64}$/);
        }
        const text = JSON.stringify(rows);
        for (const plain of ['4200000000000000', '420000', 'secret.person', '192.0.2.99']) {
          expect(text).not.toContain(plain);
        }
      } finally {
        db.close();
      }
    });

    it('is kept only on channels whose rules have velocity limits, and counted per channel', async () => {
      const m = await gw.addMerchant({
        channels: 2,
        settings: { risk: { velocity: [{ per: 'card', windowSeconds: 600, maxCount: 1 }] } },
      });
      await expectPasses(m, {});
      await expectRejected(m, {}, '800.120.101');
      const second = { ...m, entityId: m.entityIds[1]! };
      await expectPasses(second, {});
    });
  });

  describe('other pipelines', () => {
    it('registration payments are screened with the stored card (BIN, country), e-mail and IP', async () => {
      const m = await withRules({ blockedCardCountries: ['DE'], blockedIps: ['203.0.113.0/24'] });
      const other = await withRules({ blockedIps: ['203.0.113.0/24'] });
      for (const who of [m, other]) {
        const registered = await gw.post(
          '/v1/registrations',
          { entityId: who.entityId, ...VISA },
          { token: who.token },
        );
        expect(registered.status, registered.text).toBe(200);
        const payWith = (params: Record<string, string>) =>
          gw.post(
            `/v1/registrations/${registered.body.id}/payments`,
            { entityId: who.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...named(params) },
            { token: who.token },
          );
        if (who === m) {
          const rejected = await payWith({});
          expect(rejected.status).toBe(400);
          expect(rejected.body.result.code).toBe('800.300.102');
          expect(rejected.body.risk).toEqual({ score: '100' });
        } else {
          const rejected = await payWith({ 'customer.ip': '203.0.113.9' });
          expect(rejected.body.result.code).toBe('800.300.301');
          const passed = await payWith({ 'customer.ip': '192.0.2.9' });
          expect(passed.status).toBe(200);
          expect(passed.body.risk).toEqual({ score: '0' });
        }
      }
    });

    it('checkout submissions are screened; a rejection leaves the checkout open for another card', async () => {
      const m = await withRules({ blockedBins: ['420000'] });
      const created = await gw.post(
        '/v1/checkouts',
        {
          entityId: m.entityId,
          amount: '92.00',
          currency: 'EUR',
          paymentType: 'DB',
          ...named({ 'customer.email': 'jane@example.com' }),
          shopperResultUrl: 'https://shop.example/return',
        },
        { token: m.token },
      );
      expect(created.status, created.text).toBe(200);
      const id = created.body.id as string;
      const { paymentBrand: _b, ...card } = VISA;
      const rejected = await gw.post(`/v1/checkouts/${id}/payment`, { paymentBrand: 'VISA', ...card });
      expect(rejected.status, rejected.text).toBe(400);
      expect(rejected.body.result.code).toBe('800.300.401');
      const { paymentBrand: _m, ...master } = MASTER;
      const paid = await gw.post(`/v1/checkouts/${id}/payment`, { paymentBrand: 'MASTER', ...master });
      expect(paid.status, paid.text).toBe(200);
      // The widget's answer (no credentials) is the public view; the merchant's status is complete.
      const status = await gw.get(
        `/v1/checkouts/${id}/payment`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(status.body.risk).toEqual({ score: '0' });
    });
  });

  describe('stand-alone risk requests (RE, RI)', () => {
    it('answers 000.300.100 with risk.score, charges nothing, and is stored as its own type', async () => {
      const m = await withRules({
        blockedBins: ['411111'],
        scoring: { missingIp: 25 },
        velocity: [{ per: 'card', windowSeconds: 600, maxCount: 1 }],
      });
      for (const paymentType of ['RI', 'RE']) {
        const res = await pay(m, { paymentType, 'customer.email': 'jane@example.com' });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({
          paymentType,
          result: { code: '000.300.100', description: 'Risk check successful' },
          risk: { score: '25' },
          amount: '10.00',
          card: { bin: '420000' },
        });
        expect(res.body.resultDetails).toBeUndefined();
        const stored = await read(m, res.body.id);
        expect(stored.body).toMatchObject({ paymentType, result: { code: '000.300.100' } });
      }
      // Not counted: the payment after the checks is the card's first.
      await expectPasses(m, {});
      await expectRejected(m, {}, '800.120.101');
    });

    it('answers the rule\'s code when the rules reject, and 000.300.100 with score "0" without rules', async () => {
      const m = await withRules({ blockedBins: ['420000'] });
      const rejected = await pay(m, { paymentType: 'RI' });
      expect(rejected.status).toBe(400);
      expect(rejected.body).toMatchObject({
        paymentType: 'RI',
        result: { code: '800.300.401' },
        risk: { score: '100' },
      });
      const none = await withRules();
      const res = await pay(none, { paymentType: 'RE' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ result: { code: '000.300.100' }, risk: { score: '0' } });
    });

    it('is refused as a reference: nothing to capture or refund', async () => {
      const m = await withRules();
      const res = await pay(m, { paymentType: 'RI' });
      const capture = await gw.post(
        `/v1/payments/${res.body.id}`,
        { entityId: m.entityId, amount: '10.00', currency: 'EUR', paymentType: 'CP' },
        { token: m.token },
      );
      expect(capture.status).toBe(400);
      expect(capture.body.result.code).toMatch(/^700\./);
    });
  });

  describe('RISK notifications', () => {
    async function hooked(risk?: RiskRules, paymentTypes?: string[]) {
      const m = await withRules(risk);
      await gw.store.insertWebhook({
        id: newId(),
        merchantId: m.merchantId,
        url: 'https://merchant.example/hooks',
        secret: gw.vault.encrypt('0'.repeat(64)),
        encrypted: true,
        types: ['PAYMENT', 'RISK'],
        ...(paymentTypes === undefined ? {} : { paymentTypes }),
        createdAt: clock.now(),
        deletedAt: null,
      });
      return m;
    }
    const notifications = async (m: TestMerchant) =>
      (await gw.store.listDeliveries(m.merchantId, { limit: 50 })).reverse().map((d) => d.notification);

    it('a rejection notifies PAYMENT, then RISK with the payment id, the rule and the score', async () => {
      const m = await hooked({ ruleSets: { eu: { blockedIps: ['203.0.113.0/24'] } } });
      const res = await expectRejected(
        m,
        { 'customer.ip': '203.0.113.5', 'risk.channelId': 'eu' },
        '800.300.301',
      );
      const sent = await notifications(m);
      expect(sent.map((n) => n.type)).toEqual(['PAYMENT', 'RISK']);
      expect(sent[1]!.payload).toMatchObject({
        id: res.body.id,
        paymentType: 'DB',
        result: { code: '800.300.301' },
        risk: {
          channelId: 'eu',
          score: '100',
          outcome: 'reject',
          rule: 'blockedIps',
          ruleSet: 'eu',
          detail: 'IP in blocked range 203.0.113.0/24',
        },
      });
      expect(sent[0]!.payload.risk).toEqual({ channelId: 'eu', score: '100' });
      expect(JSON.stringify(sent)).not.toContain('4200000000000000');
    });

    it("an accepted payment notifies PAYMENT only; a stand-alone check notifies RISK whatever the webhook's payment types", async () => {
      const m = await hooked({ blockedBins: ['411111'] }, ['DB']);
      await expectPasses(m, {});
      expect((await notifications(m)).map((n) => n.type)).toEqual(['PAYMENT']);
      const check = await pay(m, { paymentType: 'RI' });
      const sent = await notifications(m);
      expect(sent.map((n) => n.type)).toEqual(['PAYMENT', 'RISK']);
      expect(sent[1]!.payload).toMatchObject({
        id: check.body.id,
        paymentType: 'RI',
        result: { code: '000.300.100' },
        risk: { score: '0', outcome: 'accept', signals: [] },
      });
    });
  });

  describe('setChannelRiskRules (CLI)', () => {
    it('refuses bad rules naming every field, stores good ones (audited), and null removes them', async () => {
      const m = await gw.addMerchant({ channels: 1, settings: { threeDSecure: false } });
      const bad = await setChannelRiskRules(gw.store, m.entityId, {
        blockedBins: ['4111'],
        velocity: [{ per: 'card', windowSeconds: 0, maxCount: 1 }],
      });
      expect(bad.ok).toBe(false);
      expect(!bad.ok && bad.errors.map((e) => e.split(':')[0])).toEqual([
        'blockedBins[0]',
        'velocity[0].windowSeconds',
      ]);
      expect((await gw.store.getChannel(m.entityId))?.settings.risk).toBeUndefined();

      expect(await setChannelRiskRules(gw.store, m.entityId, '{"blockedBins": [')).toMatchObject({
        ok: false,
        errors: [expect.stringMatching(/^rules: not valid JSON/)],
      });
      expect(await setChannelRiskRules(gw.store, 'nope', {})).toMatchObject({
        ok: false,
        errors: [expect.stringContaining('not an entity id')],
      });
      expect(await setChannelRiskRules(gw.store, newId(), {})).toMatchObject({
        ok: false,
        errors: [expect.stringContaining('unknown channel')],
      });

      const good = await setChannelRiskRules(gw.store, m.entityId, '{"blockedCardCountries": ["de"]}');
      expect(good).toMatchObject({ ok: true, rules: { blockedCardCountries: ['DE'] } });
      // the back office's procedure: the change is audited as the CLI's operator, on the channel
      const audited = await gw.store.listAudit({ merchantId: m.merchantId, limit: 50 });
      expect(
        audited
          .filter((e) => e.action === 'channel.risk-rules' && e.target === m.entityId)
          .map((e) => e.actor),
      ).toEqual([expect.stringMatching(/^cli:/)]);
      expect((await gw.store.getChannel(m.entityId))?.settings).toEqual({
        threeDSecure: false,
        risk: { blockedCardCountries: ['DE'] },
      });
      await expectRejected(m, {}, '800.300.102');

      expect(await setChannelRiskRules(gw.store, m.entityId, null)).toMatchObject({
        ok: true,
        rules: undefined,
      });
      expect((await gw.store.getChannel(m.entityId))?.settings).toEqual({ threeDSecure: false });
      // The HTTP layer caches channels for 5 s (wall clock): a channel not yet seen shows the removal at once.
      const fresh = await gw.addMerchant({ channels: 1 });
      expect((await setChannelRiskRules(gw.store, fresh.entityId, { blockedBins: ['420000'] })).ok).toBe(
        true,
      );
      expect((await setChannelRiskRules(gw.store, fresh.entityId, null)).ok).toBe(true);
      await expectPasses(fresh, {});
    });
  });
});

// ---- PostgreSQL ------------------------------------------------------------------------------------

describe.skipIf(postgresUnavailableReason() !== undefined)('risk checks over HTTP (PostgreSQL)', () => {
  const clock = fakeClock();
  let cluster: PostgresCluster | undefined;
  let gw: TestGateway;

  beforeAll(async () => {
    cluster = await startPostgres();
    gw = await testGateway({
      databaseUrl: cluster.url,
      clock,
      webhooks: { autoStart: false },
      notifier: { autoStart: false },
      pending: { autoStart: false },
    });
  }, 120_000);
  afterAll(async () => {
    await gw?.cleanup();
    await cluster?.stop();
  }, 60_000);

  it("counts velocity (count and volume) from risk_events, and notifies RISK in the payment's transaction", async () => {
    const m = await gw.addMerchant({
      channels: 1,
      settings: {
        risk: {
          velocity: [
            { per: 'card', windowSeconds: 600, maxCount: 3 },
            { per: 'email', windowSeconds: 600, maxVolume: { EUR: 2500 } },
          ],
        },
      },
    });
    await gw.store.insertWebhook({
      id: newId(),
      merchantId: m.merchantId,
      url: 'https://merchant.example/hooks',
      secret: gw.vault.encrypt('0'.repeat(64)),
      encrypted: true,
      types: ['RISK'],
      createdAt: clock.now(),
      deletedAt: null,
    });
    const pay = (amount: string) =>
      gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount,
          currency: 'EUR',
          paymentType: 'DB',
          ...VISA,
          'customer.givenName': 'Jane',
          'customer.surname': 'Jones',
          'customer.email': 'jane@example.com',
        },
        { token: m.token },
      );
    expect((await pay('10.00')).body.result.code).toBe('000.100.110');
    expect((await pay('10.00')).body.result.code).toBe('000.100.110');
    const volume = await pay('5.01');
    expect(volume.body.result.code).toBe('800.120.203');
    expect((await pay('5.00')).body.result.code).toBe('000.100.110');
    const count = await pay('0.01');
    expect(count.body.result.code).toBe('800.120.101');
    const sent = (await gw.store.listDeliveries(m.merchantId, { limit: 10 })).reverse();
    expect(sent.map((d) => [d.notification.type, d.notification.payload.id])).toEqual([
      ['RISK', volume.body.id],
      ['RISK', count.body.id],
    ]);
    expect(sent[0]!.notification.payload.risk).toMatchObject({ rule: 'velocity[1].maxVolume', score: '100' });
  });
});
