/**
 * A settlement day for the settlement run's tests, made through the HTTP API (and the chargeback
 * back office). The CSV reader and the spec's table as checks: spec-checks.ts beside it.
 */
import { expect } from 'vitest';
import type { Clock } from '../../../shared/engine/core/ports';
import { bookChargeback, reverseChargeback } from '../../../shared/engine/operations/chargebacks';
import { VISA_CARD } from '../fixtures/cards';
import type { TestGateway, TestMerchant } from '../gateway';

/**
 * One card debit of 10.00 EUR on the merchant's first channel (with `params` added or replacing),
 * answered 200, then the clock a minute on: the settlement tests' payments, in order and apart.
 */
export async function debitThenTick(
  gw: TestGateway,
  clock: Clock & { advance(ms: number): void },
  merchant: TestMerchant,
  params: Record<string, string> = {},
): Promise<string> {
  const res = await gw.post(
    '/v1/payments',
    {
      entityId: merchant.entityId,
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      ...VISA_CARD,
      ...params,
    },
    { token: merchant.token },
  );
  expect(res.status, res.text).toBe(200);
  clock.advance(60_000);
  return res.body.id as string;
}

/** The payments of a settlement day, by role. */
export interface PaidDay {
  readonly db: string;
  readonly pa: string;
  readonly cp: string;
  readonly rf: string;
  readonly cb: string;
  readonly cr: string;
  readonly declined: string;
  /** A USD debit (a second settlement currency), when asked for. */
  readonly usd?: string;
}

/**
 * Makes a day's transactions on the merchant's first channel, a minute apart: DB 92.00 EUR,
 * PA 100.00 + CP 60.00, RF 20.00 of the DB, a declined DB, CB 60.00 of the CP (reason 000.100.220)
 * and its CR; with `usd`, a DB of 49.99 USD.
 */
export async function payDay(
  gw: TestGateway,
  clock: Clock & { advance(ms: number): void },
  merchant: TestMerchant,
  options: { usd?: boolean; entityId?: string } = {},
): Promise<PaidDay> {
  const entityId = options.entityId ?? merchant.entityId;
  const auth = { token: merchant.token };
  const tick = () => clock.advance(60_000);
  const ok = (res: { status: number; body: { id: string; result: { code: string } } }) => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id;
  };
  const db = ok(
    await gw.post(
      '/v1/payments',
      {
        entityId,
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'DB',
        merchantTransactionId: 'order-0001',
        ...VISA_CARD,
      },
      auth,
    ),
  );
  tick();
  const pa = ok(
    await gw.post(
      '/v1/payments',
      { entityId, amount: '100.00', currency: 'EUR', paymentType: 'PA', ...VISA_CARD },
      auth,
    ),
  );
  tick();
  const cp = ok(
    await gw.post(
      `/v1/payments/${pa}`,
      { entityId, amount: '60.00', currency: 'EUR', paymentType: 'CP' },
      auth,
    ),
  );
  tick();
  const rf = ok(
    await gw.post(
      `/v1/payments/${db}`,
      { entityId, amount: '20.00', currency: 'EUR', paymentType: 'RF' },
      auth,
    ),
  );
  tick();
  const declinedRes = await gw.post(
    '/v1/payments',
    {
      entityId,
      amount: '5.00',
      currency: 'EUR',
      paymentType: 'DB',
      ...VISA_CARD,
      'card.number': '4000000000000002',
    },
    auth,
  );
  expect(declinedRes.status).toBe(400);
  const declined = declinedRes.body.id as string;
  tick();
  const deps = { store: gw.store, clock };
  const cbOutcome = await bookChargeback(deps, merchant.merchantId, cp, {
    chargebackResultCode: '000.100.220',
  });
  if (cbOutcome.kind !== 'booked') throw new Error(`chargeback: ${JSON.stringify(cbOutcome)}`);
  tick();
  const crOutcome = await reverseChargeback(deps, merchant.merchantId, cbOutcome.payment.id);
  if (crOutcome.kind !== 'booked') throw new Error(`reversal: ${JSON.stringify(crOutcome)}`);
  tick();
  let usd: string | undefined;
  if (options.usd) {
    usd = ok(
      await gw.post(
        '/v1/payments',
        {
          entityId,
          amount: '49.99',
          currency: 'USD',
          paymentType: 'DB',
          ...VISA_CARD,
          paymentBrand: 'MASTER',
          'card.number': '5454545454545454',
        },
        auth,
      ),
    );
    tick();
  }
  return {
    db,
    pa,
    cp,
    rf,
    cb: cbOutcome.payment.id,
    cr: crOutcome.payment.id,
    declined,
    ...(usd ? { usd } : {}),
  };
}
