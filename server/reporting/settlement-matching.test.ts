/**
 * Matching by the merchant's reference against the whole day, now that the run settles a day a
 * page at a time: a chargeback whose original payment the store does not have matches, by its
 * merchantTransactionId, the payments of the day with that reference, one of them made later (the
 * run reads the day again for a reference it did not know it needed), and the acquirer's own
 * record matches by its reference too. The expectations are what settle() gives over the whole day.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../test-kit/clock';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { debitThenTick } from '../test-kit/settlement/pay-day';
import { type CsvRow, checkReconciliationCsv } from '../test-kit/settlement/spec-checks';
import { settleDay } from './settlement-run';

const DAY = '2026-07-14';

describe('settlement run, matching by reference across the day', () => {
  const clock = fakeClock(`${DAY}T08:00:00.000Z`);
  let gw: TestGateway;
  let m: TestMerchant;
  const ids: Record<string, string> = {};
  const pay = (merchantTransactionId: string) => debitThenTick(gw, clock, m, { merchantTransactionId });

  beforeAll(async () => {
    gw = await testGateway({ clock, settlement: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
    ids.first = await pay('order-first');
    // A chargeback whose original the store does not have (booked against a payment it never
    // held): written as the back office writes one, referencing an unknown id.
    const template = (await gw.store.getPayment(m.merchantId, ids.first))!;
    ids.chargeback = randomBytes(16).toString('hex');
    await gw.store.insertPayment({
      ...template,
      id: ids.chargeback,
      shortId: '9999.9999.9999',
      paymentType: 'CB',
      resultCode: '000.100.220',
      referencedId: randomBytes(16).toString('hex'),
      merchantTransactionId: 'order-later',
      createdAt: clock.now(),
      details: { ...template.details, chargebackResultCode: '000.100.220' },
    });
    clock.advance(60_000);
    ids.later = await pay('order-later');
    const held = await gw.post('/simulators/acquirer/records', {
      entityId: m.entityId,
      paymentType: 'DB',
      amount: '5.00',
      currency: 'EUR',
      merchantTransactionId: 'order-first',
    });
    expect(held.status, held.text).toBe(200);
    ids.acquirer = held.body.id;
    clock.advance(Date.parse(`${DAY}T23:59:59.999Z`) - clock.now().getTime() + 3 * 3_600_000);
  });
  afterAll(() => gw?.cleanup());

  it('matches them as settle() does over the whole day', async () => {
    const [account] = await settleDay({ store: gw.store, clock, dataDir: gw.dataDir }, DAY, {
      channelIds: [m.entityId],
    });
    expect(account?.file).toBeDefined();
    const rows = checkReconciliationCsv(await readFile(account!.file!, 'utf8'));
    const matched = (predicate: (row: CsvRow) => boolean) =>
      rows.filter(predicate).map((r) => [r.ReconciliationType, r.MatchingStatus, r.MatchedTransactions]);
    // the chargeback carries the reference too: both are the merchant's payments with it
    expect(matched((r) => r.UniqueID === ids.chargeback)).toEqual([
      ['CHARGEBACK', 'MULTIPLE_MATCHES', [ids.chargeback, ids.later].sort().join(',')],
    ]);
    expect(matched((r) => r.ConnectorTxId1 === ids.acquirer)).toEqual([
      ['SETTLED', 'MATCHED', ids.first],
      ['FEE', 'MATCHED', ids.first],
    ]);
    expect(matched((r) => r.UniqueID === ids.first)[0]).toEqual(['SETTLED', 'MATCHED', ids.first]);
  });
});
