import { Readable, Writable } from 'node:stream';
import { Client, FTPError } from 'basic-ftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleDay } from '../../reporting/settlement-run';
import { fakeClock } from '../../test-kit/clock';
import { VISA_CARD_WITHOUT_CVV } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { type PaidDay, payDay } from '../../test-kit/settlement/pay-day';
import { checkReconciliationCsv, SPEC_HEADER } from '../../test-kit/settlement/spec-checks';

const PATH = '/reports/v1/reconciliations/aggregations';
describe('Reporting API and FTP delivery', () => {
  const clock = fakeClock('2026-03-10T09:00:00.000Z');
  let gw: TestGateway;
  let a: TestMerchant;
  let b: TestMerchant;
  /** A token of merchant A for its first channel only. */
  let narrow: { token: string; userId: string; secret: string };
  let paid: PaidDay;
  let secondDay = '';
  let otherChannel = '';

  beforeAll(async () => {
    gw = await testGateway({ clock, settlement: { autoStart: false }, ftp: { port: 0 } });
    a = await gw.addMerchant({ channels: 2 });
    b = await gw.addMerchant({ channels: 1 });
    narrow = await gw.addToken(a.merchantId, [a.entityIds[0]!]);
    paid = await payDay(gw, clock, a, { usd: true });
    await payDay(gw, clock, b);
    const other = await gw.post(
      '/v1/payments',
      {
        entityId: a.entityIds[1]!,
        amount: '7.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...VISA_CARD_WITHOUT_CVV,
      },
      { token: a.token },
    );
    otherChannel = other.body.id;
    clock.advance(86_400_000);
    const next = await gw.post(
      '/v1/payments',
      { entityId: a.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD_WITHOUT_CVV },
      { token: a.token },
    );
    secondDay = next.body.id;
    clock.advance(86_400_000);
    const deps = { store: gw.store, clock, dataDir: gw.dataDir };
    await settleDay(deps, '2026-03-10');
    await settleDay(deps, '2026-03-11');
  });
  afterAll(async () => {
    await gw?.cleanup();
  });

  const list = (params: Record<string, string>, token = a.token) => gw.get(PATH, params, { token });
  const range = { entityId: '', 'date.from': '2026-03-10', 'date.to': '2026-03-11' };
  const aggregationsOf = async (entityId: string, currency?: string) =>
    (await list({ ...range, entityId, ...(currency ? { currency } : {}) })).body.aggregations as {
      id: string;
      date: string;
      currency: string;
    }[];

  describe('GET aggregations', () => {
    it("lists the merchant account's settlements per day and currency", async () => {
      const res = await list({ ...range, entityId: a.entityId });
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.000.100');
      expect(
        res.body.aggregations.map((x: { date: string; currency: string }) => [x.date, x.currency]),
      ).toEqual([
        ['2026-03-10', 'EUR'],
        ['2026-03-10', 'USD'],
        ['2026-03-11', 'EUR'],
      ]);
      expect(res.body.aggregations[0]).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        entityId: a.entityId,
        date: '2026-03-10',
        currency: 'EUR',
        status: 'SUCCESS',
        // as text, as every leaf of an answer (decisions, Fidelity)
        recordCount: '8',
        counts: { settled: '3', chargebacks: '1', chargebackReversals: '1', fees: '3' },
        totals: { positive: '212.00', negative: '82.38', fees: '2.38', net: '129.62' },
      });
      expect(res.body.aggregations[2]).toMatchObject({
        recordCount: '2',
        totals: { positive: '10.00', negative: '0.15', fees: '0.15', net: '9.85' },
      });
    });

    it('filters by currency and answers an empty list for days without settlements', async () => {
      expect((await aggregationsOf(a.entityId, 'USD')).map((x) => x.currency)).toEqual(['USD']);
      const none = await list({ entityId: a.entityId, 'date.from': '2026-01-01', 'date.to': '2026-01-31' });
      expect(none.status).toBe(200);
      expect(none.body.aggregations).toEqual([]);
      expect((await aggregationsOf(a.entityIds[1]!)).map((x) => x.date)).toEqual(['2026-03-10']);
    });

    it('answers 400 naming each bad parameter', async () => {
      const names = async (params: Record<string, string>) => {
        const res = await list({ entityId: a.entityId, ...params });
        expect(res.status).toBe(400);
        expect(res.body.result.code).toBe('200.300.404');
        return res.body.result.parameterErrors.map((e: { name: string }) => e.name);
      };
      expect(await names({})).toEqual(['date.from', 'date.to']);
      expect(await names({ 'date.from': '2026-03-10' })).toEqual(['date.to']);
      expect(await names({ 'date.to': '2026-03-10' })).toEqual(['date.from']);
      expect(
        await names({
          'date.from': '2026-13-01',
          'date.to': '10.03.2026',
          sortValue: 'Amount',
          sortOrder: 'up',
          currency: 'eur',
          bogus: '1',
        }),
      ).toEqual(['date.from', 'date.to', 'sortValue', 'sortOrder', 'currency', 'bogus']);
      const after = await list({ entityId: a.entityId, 'date.from': '2026-03-11', 'date.to': '2026-03-10' });
      expect(after.body.result.parameterErrors).toEqual([
        { name: 'date.to', value: '2026-03-10', message: 'must not be before date.from' },
      ]);
      // 31 days, both included, is the most one request may span.
      expect(
        (await list({ entityId: a.entityId, 'date.from': '2026-03-01', 'date.to': '2026-03-31' })).status,
      ).toBe(200);
      const long = await list({ entityId: a.entityId, 'date.from': '2026-03-01', 'date.to': '2026-04-01' });
      expect(long.status).toBe(400);
      expect(long.body.result.parameterErrors).toEqual([
        {
          name: 'date.to',
          value: '2026-04-01',
          message: 'must be at most 31 days after date.from, both included',
        },
      ]);
    });

    it('authenticates and scopes like the Query API', async () => {
      expect((await gw.get(PATH, { ...range, entityId: a.entityId })).status).toBe(401);
      expect((await list({ ...range, entityId: a.entityId }, b.token)).status).toBe(403);
      // More than one channel: entityId is needed.
      expect((await list({ 'date.from': '2026-03-10', 'date.to': '2026-03-10' })).status).toBe(403);
      // The narrow token may not name A's second channel, and needs no entityId for its one.
      expect((await list({ ...range, entityId: a.entityIds[1]! }, narrow.token)).status).toBe(403);
      const own = await list({ 'date.from': '2026-03-10', 'date.to': '2026-03-11' }, narrow.token);
      expect(own.body.aggregations).toHaveLength(3);
      const bList = await list({ ...range, entityId: b.entityId }, b.token);
      expect(bList.body.aggregations.map((x: { entityId: string }) => x.entityId)).toEqual([b.entityId]);
    });
  });

  describe('GET aggregations/{id}', () => {
    const detail = (id: string, params: Record<string, string> = {}, token = a.token) =>
      gw.get(`${PATH}/${id}`, { entityId: a.entityId, ...params }, { token });

    it("answers the aggregation and its records in the spec's API names", async () => {
      const [eur] = await aggregationsOf(a.entityId);
      const res = await detail(eur!.id);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.000.100');
      // streamed a page at a time, written as every envelope answer is: one compact JSON, its names in order
      expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
      expect(res.text).toBe(JSON.stringify(res.body));
      expect(Object.keys(res.body)).toEqual([
        'aggregation',
        'records',
        'result',
        'buildNumber',
        'timestamp',
        'ndc',
      ]);
      expect(res.body.records).toHaveLength(8);
      expect(res.body.aggregation).toMatchObject({ id: eur!.id, currency: 'EUR', recordCount: '8' });
      const records = res.body.records;
      expect(
        records.map((r: { recordType: string; transactionType: string }) => [
          r.recordType,
          r.transactionType,
        ]),
      ).toEqual([
        ['SETTLED', 'DEBIT'],
        ['FEE', 'CAPTURE_FEE'],
        ['SETTLED', 'DEBIT'],
        ['FEE', 'CAPTURE_FEE'],
        ['SETTLED', 'REFUND'],
        ['FEE', 'REFUND_FEE'],
        ['CHARGEBACK', 'DEBIT'],
        ['CHARGEBACK REVERSAL', 'DEBIT'],
      ]);
      expect(records[0]).toEqual({
        recordType: 'SETTLED',
        transactionType: 'DEBIT',
        settlement: {
          id: `20260310${paid.db}`,
          amount: '92.00',
          currency: 'EUR',
          fee: '1.38',
          fxRate: '1.00',
          date: '2026-03-10',
          status: 'SUCCESS',
          format: 'SIM-SETTLEMENT-V1',
          cashflow: 'POS',
        },
        clearingInstitute: { name: 'Simulated Acquirer', merchantId: `SIM-${a.entityId.slice(0, 16)}` },
        card: { last4Digits: '0000', holder: 'Jane Jones' },
        merchantAccount: { id: a.entityId, name: 'Test_Channel_1' },
        pspEntityId: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
        merchantEntityId: a.merchantId,
        payment: { id: paid.db },
        shortId: expect.stringMatching(/^\d{4}\.\d{4}\.\d{4}$/),
        merchantTransactionId: 'order-0001',
        amount: '92.00',
        currency: 'EUR',
        paymentBrand: 'VISA',
        presentmentDate: '2026-03-10 09:00:00',
        descriptor: expect.stringMatching(/Test_Channel_1/),
        matchedTransactions: { status: 'MATCHED', payment: [{ id: paid.db }] },
      });
      expect(records[6]).toMatchObject({
        settlement: { cashflow: 'NEG', amount: '60.00' },
        payment: { id: paid.cb },
        result: { code: '000.100.220', description: 'Fraudulent Transaction' },
        matchedTransactions: { status: 'MATCHED', payment: [{ id: paid.cp }] },
        chargebackTransaction: { id: paid.cb },
      });
      // the reversal names the chargeback it reverses (ChargebackId), as the chargeback does
      expect(records[7].chargebackTransaction).toEqual({ id: paid.cb });
      expect(records[1].result).toBeUndefined();
    });

    it('sorts by SettlementTxDate, ascending by default, in any case of ASC and DESC', async () => {
      const [eur] = await aggregationsOf(a.entityId);
      const order = async (params: Record<string, string>) => {
        const res = await detail(eur!.id, params);
        expect(res.status).toBe(200);
        return res.body.records.map((r: { settlement: { id: string } }) => r.settlement.id);
      };
      const asc = await order({});
      expect(asc[0]).toBe(`20260310${paid.db}`);
      expect(asc.at(-1)).toBe(`20260310${paid.cr}`);
      expect(await order({ sortValue: 'SettlementTxDate', sortOrder: 'ASC' })).toEqual(asc);
      expect(await order({ sortOrder: 'asc' })).toEqual(asc);
      const reversed = [...asc].reverse();
      expect(await order({ sortValue: 'SettlementTxDate', sortOrder: 'DESC' })).toEqual(reversed);
      expect(await order({ sortOrder: 'desc' })).toEqual(reversed);
    });

    it('answers 400 for bad sort parameters, and takes no dates', async () => {
      const [eur] = await aggregationsOf(a.entityId);
      const res = await detail(eur!.id, { sortValue: 'Amount', sortOrder: 'DOWN', 'date.from': 'x' });
      expect(res.status).toBe(400);
      expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual([
        'date.from',
        'sortValue',
        'sortOrder',
      ]);
      expect((await detail(eur!.id, { 'date.from': '2026-03-10' })).status).toBe(200);
      expect((await detail(eur!.id, { 'date.from': '2026-03-10', 'date.to': '2026-03-01' })).status).toBe(
        400,
      );
    });

    it("answers 404 for other merchants' ids, other channels' for a narrow token, and unknown ids", async () => {
      const [eur] = await aggregationsOf(a.entityId);
      const [bEur] = (await list({ ...range, entityId: b.entityId }, b.token)).body.aggregations;
      expect((await gw.get(`${PATH}/${eur!.id}`, { entityId: b.entityId }, { token: b.token })).status).toBe(
        404,
      );
      expect((await detail(bEur.id)).status).toBe(404);
      const [second] = await aggregationsOf(a.entityIds[1]!);
      expect((await gw.get(`${PATH}/${second!.id}`, {}, { token: narrow.token })).status).toBe(404);
      expect((await detail(second!.id)).status).toBe(200);
      expect((await detail('0'.repeat(32))).status).toBe(404);
      const bad = await detail('not-an-id');
      expect(bad.status).toBe(404);
      expect(bad.body.result.description).toBe('No aggregation found for the requested id');
      expect((await gw.get(`${PATH}/${eur!.id}`, { entityId: a.entityId })).status).toBe(401);
    });

    it('downloads the records as the reconciliation CSV', async () => {
      const [eur] = await aggregationsOf(a.entityId);
      const file = await gw.get(`${PATH}/${eur!.id}/file`, { entityId: a.entityId }, { token: a.token });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(file.headers.get('content-disposition')).toBe(
        `attachment; filename="reconciliation_${a.entityId}_20260310_EUR.csv"`,
      );
      const rows = checkReconciliationCsv(file.text);
      expect(rows.map((r) => r.UniqueID)).toEqual([
        paid.db,
        paid.db,
        paid.cp,
        paid.cp,
        paid.rf,
        paid.rf,
        paid.cb,
        paid.cr,
      ]);
      const accept = await gw.send('GET', `${PATH}/${eur!.id}?entityId=${a.entityId}`, undefined, {
        token: a.token,
        headers: { Accept: 'text/csv' },
      });
      expect(accept.text).toBe(file.text);
      const desc = await gw.get(
        `${PATH}/${eur!.id}/file`,
        { entityId: a.entityId, sortOrder: 'DESC' },
        { token: a.token },
      );
      expect(checkReconciliationCsv(desc.text).map((r) => r.UniqueID)).toEqual(
        rows.map((r) => r.UniqueID).reverse(),
      );
      expect(
        (await gw.get(`${PATH}/${eur!.id}/file`, { entityId: b.entityId }, { token: b.token })).status,
      ).toBe(404);
    });
  });

  describe('FTP', () => {
    const clients: Client[] = [];
    afterAll(() => {
      for (const c of clients) c.close();
    });
    const connect = async (user: string, password: string) => {
      const client = new Client(10_000);
      clients.push(client);
      await client.access({ host: '127.0.0.1', port: gw.ftp!.port, user, password });
      return client;
    };
    const download = async (client: Client, path: string): Promise<string> => {
      const chunks: Buffer[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      });
      await client.downloadTo(sink, path);
      return Buffer.concat(chunks).toString('utf8');
    };
    const csvOf = async (id: string) =>
      (await gw.get(`${PATH}/${id}/file`, {}, { token: narrow.token })).text;

    it("is started by the gateway; a merchant logs in with its token's userId and secret and sees only its files", async () => {
      expect(gw.ftp?.port).toBeGreaterThan(0);
      const client = await connect(a.userId, a.secret);
      const names = (await client.list()).map((f) => f.name).sort();
      expect(names).toEqual(
        [
          `reconciliation_${a.entityIds[0]}_20260310.csv`,
          `reconciliation_${a.entityIds[0]}_20260311.csv`,
          `reconciliation_${a.entityIds[1]}_20260310.csv`,
        ].sort(),
      );
      expect(names.join()).not.toContain(b.entityId);
      expect((await client.list('..')).map((f) => f.name).sort()).toEqual(names);

      const bClient = await connect(b.userId, b.secret);
      expect((await bClient.list()).map((f) => f.name)).toEqual([
        `reconciliation_${b.entityId}_20260310.csv`,
      ]);
    });

    it("downloads files equal to the reporting API's CSV", async () => {
      const client = await connect(a.userId, a.secret);
      const aggregations = await aggregationsOf(a.entityId);
      const [eur10, usd10, eur11] = aggregations;
      // One currency: the file is the aggregation's CSV.
      const day11 = await download(client, `reconciliation_${a.entityId}_20260311.csv`);
      expect(day11).toBe(await csvOf(eur11!.id));
      expect(checkReconciliationCsv(day11).map((r) => r.UniqueID)).toEqual([secondDay, secondDay]);
      // Two currencies: EUR's records, then USD's, under one header.
      const day10 = await download(client, `reconciliation_${a.entityId}_20260310.csv`);
      const header = `${SPEC_HEADER}\r\n`;
      expect(day10).toBe((await csvOf(eur10!.id)) + (await csvOf(usd10!.id)).slice(header.length));
      checkReconciliationCsv(day10);
      const other = await download(client, `reconciliation_${a.entityIds[1]}_20260310.csv`);
      expect(checkReconciliationCsv(other).map((r) => r.UniqueID)).toEqual([otherChannel, otherChannel]);
    });

    it('refuses wrong secrets, channel-restricted tokens, and reaching other folders', async () => {
      const refused = async (user: string, password: string) => {
        try {
          await connect(user, password);
        } catch (error) {
          return error instanceof FTPError ? error.code : String(error);
        }
        return 'logged in';
      };
      expect(await refused(a.userId, b.secret)).toBe(530);
      expect(await refused(narrow.userId, narrow.secret)).toBe(530);
      expect(await refused(a.merchantId, a.secret)).toBe(530);
      const client = await connect(a.userId, a.secret);
      await expect(
        download(client, `../${b.merchantId}/reconciliation_${b.entityId}_20260310.csv`),
      ).rejects.toThrow();
      await expect(client.uploadFrom(Readable.from(['x']), 'x.csv')).rejects.toThrow();
    });
  });
});
