/**
 * The Query API's `paymentMethods` takes every method code of the spec (DD, CT, CC, WA, VA, UA,
 * OT, DC, ET, NT, IV, PP, OD, RM). The spec lists UA, ET, NT and OD without saying what they are,
 * and no brand of the catalogue (nor of the family's public clients) has them: a query for one
 * answers as a query that matches nothing does (200, 000.000.100, an empty list), never an error,
 * and beside a code that has brands it takes away nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueBrands, METHOD_CODES, PAYMENT_BRANDS } from '../../../shared/brands';
import { fakeClock } from '../../test-kit/clock';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

const WITHOUT_BRANDS = METHOD_CODES.filter((code) =>
  catalogueBrands().every((brand) => PAYMENT_BRANDS[brand].method !== code),
);

describe('paymentMethods codes no brand has (HTTP)', () => {
  const clock = fakeClock('2026-11-21T12:00:00.000Z');
  let gw: TestGateway;
  let m: TestMerchant;
  let card: string;

  beforeAll(async () => {
    gw = await testGateway({ clock, pending: { autoStart: false }, notifier: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
    const paid = await gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD },
      { token: m.token },
    );
    expect(paid.status, paid.text).toBe(200);
    card = paid.body.id;
  });
  afterAll(() => gw?.cleanup());

  const query = (paymentMethods: string, extra: Record<string, string> = {}) =>
    gw.get(
      '/v1/query',
      {
        entityId: m.entityId,
        'date.from': '2026-11-21 00:00:00',
        'date.to': '2026-11-21 23:59:59',
        paymentMethods,
        ...extra,
      },
      { token: m.token },
    );

  it('are UA, ET, NT and OD (RM is the risk checks’ own)', () => {
    expect(WITHOUT_BRANDS).toEqual(['UA', 'ET', 'NT', 'OD', 'RM']);
  });

  it.each(WITHOUT_BRANDS)('%s: 200, 000.000.100 and an empty list', async (code) => {
    for (const extra of [{}, { includeLinkedTransactions: 'true' }] as Record<string, string>[]) {
      const res = await query(code, extra);
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.000.100');
      expect(res.body.payments).toEqual([]);
    }
  });

  it('beside a code with brands they take nothing away', async () => {
    const res = await query(['CC', ...WITHOUT_BRANDS].join(','));
    expect(res.status, res.text).toBe(200);
    expect(res.body.payments.map((p: { id: string }) => p.id)).toEqual([card]);
  });
});
