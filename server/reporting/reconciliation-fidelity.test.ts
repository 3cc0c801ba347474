/**
 * The reconciliation records as the spec's record table names them, through the Reporting API
 * (GET /reports/v1/reconciliations/aggregations/{id}) and the CSV: a bank account's record carries
 * its account under `bankAccount.*` (AccountNumberLast4, AccountHolder, BankCode), never under
 * `card.*`; a chargeback reversal names the chargeback it reverses (ChargebackId,
 * `chargebackTransaction.id`), as its chargeback does; a connector channel's records name the
 * connector as their clearing institute, not the simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookChargeback, reverseChargeback } from '../../shared/engine/operations/chargebacks';
import { fakeClock } from '../test-kit/clock';
import { SEPA_DIRECT_DEBIT } from '../test-kit/fixtures/bank-accounts';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { EXTERNAL_CONNECTOR } from '../test-kit/fixtures/channels';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { SIMULATED_CLEARING_INSTITUTE, settleDay } from './settlement-run';

const PATH = '/reports/v1/reconciliations/aggregations';
const DAY = '2026-03-10';

// biome-ignore lint/suspicious/noExplicitAny: records are read field by field, as a merchant does
type Json = any;

describe('reconciliation records as the spec names them', () => {
  const clock = fakeClock(`${DAY}T09:00:00.000Z`);
  let gw: TestGateway;
  let m: TestMerchant;
  /** A channel whose processor is a connector (testMode=EXTERNAL goes there). */
  let viaConnector: TestMerchant;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    gw = await testGateway({
      clock,
      settlement: { autoStart: false },
      connector: { send: async () => ({ code: '000.100.112', id: 'connector-tx-1' }) },
    });
    m = await gw.addMerchant({ channels: 1 });
    viaConnector = await gw.addMerchant({
      channels: 1,
      settings: {
        ...EXTERNAL_CONNECTOR,
      },
    });
    const pay = async (name: string, params: Record<string, string>, who = m) => {
      const res = await gw.post(
        '/v1/payments',
        { entityId: who.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...params },
        { token: who.token },
      );
      expect(res.status, res.text).toBe(200);
      ids[name] = res.body.id;
      clock.advance(60_000);
    };
    await pay('sepa', SEPA_DIRECT_DEBIT);
    await pay('card', VISA_CARD);
    const deps = { store: gw.store, clock };
    const cb = await bookChargeback(deps, m.merchantId, ids.card!, { chargebackResultCode: '000.100.220' });
    if (cb.kind !== 'booked') throw new Error(JSON.stringify(cb));
    ids.cb = cb.payment.id;
    clock.advance(60_000);
    const cr = await reverseChargeback(deps, m.merchantId, ids.cb);
    if (cr.kind !== 'booked') throw new Error(JSON.stringify(cr));
    ids.cr = cr.payment.id;
    clock.advance(60_000);
    await pay('external', { ...VISA_CARD, testMode: 'EXTERNAL' }, viaConnector);
    await pay('simulated', VISA_CARD, viaConnector);
    clock.advance(86_400_000);
    await settleDay({ store: gw.store, clock, dataDir: gw.dataDir }, DAY);
  });
  afterAll(() => gw.cleanup());

  /** The day's records of a merchant's channel, as the Reporting API answers them. */
  async function records(who: TestMerchant): Promise<Json[]> {
    const list = await gw.get(
      PATH,
      { entityId: who.entityId, 'date.from': DAY, 'date.to': DAY },
      { token: who.token },
    );
    expect(list.status, list.text).toBe(200);
    const out: Json[] = [];
    for (const { id } of list.body.aggregations) {
      const detail = await gw.get(`${PATH}/${id}`, { entityId: who.entityId }, { token: who.token });
      out.push(...detail.body.records);
    }
    return out;
  }
  const ofPayment = (all: Json[], id: string, recordType = 'SETTLED') =>
    all.find((r) => r.payment?.id === id && r.recordType === recordType);

  it('answers a bank account under bankAccount.*, a card under card.*', async () => {
    const all = await records(m);
    const sepa = ofPayment(all, ids.sepa!);
    expect(sepa.bankAccount).toEqual({ last4Digits: '3000', holder: 'Jane Jones' });
    expect(sepa.card).toBeUndefined();
    expect(ofPayment(all, ids.card!).card).toMatchObject({ last4Digits: '0000' });
  });

  it('names the chargeback a chargeback reversal reverses', async () => {
    const all = await records(m);
    const cb = ofPayment(all, ids.cb!, 'CHARGEBACK');
    expect(cb.chargebackTransaction).toEqual({ id: ids.cb });
    const cr = ofPayment(all, ids.cr!, 'CHARGEBACK REVERSAL');
    expect(cr.chargebackTransaction).toEqual({ id: ids.cb });
  });

  it('names the connector as the clearing institute of what the connector processed', async () => {
    const all = await records(viaConnector);
    const external = ofPayment(all, ids.external!);
    expect(external.clearingInstitute.name).not.toBe(SIMULATED_CLEARING_INSTITUTE);
    expect(external.clearingInstitute.name).toMatch(/acquirer\.example/);
    expect(external.clearingInstitute.merchantId).toBe('e'.repeat(32));
    // the simulator decided the INTERNAL payment of the same channel
    expect(ofPayment(all, ids.simulated!).clearingInstitute.name).toBe(SIMULATED_CLEARING_INSTITUTE);
  });
});
