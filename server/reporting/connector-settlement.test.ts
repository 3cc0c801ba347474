/**
 * A connector channel settles from what its processor reports (issue 32 point 6): two gateways in
 * process, the second standing for the live acquirer's system (an `opp` upstream, its test
 * channel settling USD in EUR with its own rate and fees). The gateway's settlement run of the
 * live channel reads the upstream's reconciliation records of the day (the Reporting API) and
 * writes the live reconciliation file with the upstream's settled amounts, FX rate and fees, the
 * connector as clearing institute; a payment the upstream does not report settles FAILED and is
 * named in the run's answer, and one the upstream reports that the gateway lacks is written
 * NOT_MATCHED and named too.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../shared/engine/core/model';
import { asMinor } from '../../shared/money';
import { run as runCli } from '../cli/run';
import { oppClient } from '../connectors/opp/client';
import { openStore } from '../storage';
import { ADMIN_TOKEN, adminCall } from '../test-kit/admin';
import { fakeClock } from '../test-kit/clock';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type CsvRow, checkReconciliationCsv } from '../test-kit/settlement/spec-checks';
import { testVault } from '../test-kit/vault';
import { SIMULATED_CLEARING_INSTITUTE } from './settlement-run';

const DAY = '2026-11-30';
const WORKERS = {
  scheduler: { autoStart: false },
  pending: { autoStart: false },
  notifier: { autoStart: false },
  webhooks: { autoStart: false },
} as const;

describe('a connector channel settles from its processor’s records (opp)', () => {
  const clock = fakeClock(`${DAY}T09:00:00.000Z`);
  let acquirer: TestGateway;
  let upstream: TestMerchant;
  let gw: TestGateway;
  let merchant: TestMerchant;
  /** A second live channel, its day settled later by the CLI. */
  let other: TestMerchant;
  /** A third, whose processor's Reporting API is down at first. */
  let late: TestMerchant;
  let reportsDown = false;
  /** The upstream's settlement of its channel: EUR, its own rate and fees (not the simulator's table). */
  const upstreamConfig = (channel: Channel) =>
    channel.id === upstream?.entityId
      ? {
          currency: 'EUR',
          fxRates: { USD: '0.912345' },
          fees: { DB: { basisPoints: 250, fixed: asMinor(30) }, RF: { basisPoints: 0, fixed: asMinor(10) } },
        }
      : undefined;
  const ids: Record<string, string> = {};
  // biome-ignore lint/suspicious/noExplicitAny: the run's answer is read as an operator reads it
  let run: any;
  let rows: CsvRow[];

  beforeAll(async () => {
    acquirer = await testGateway({
      clock,
      settlement: { autoStart: false, config: upstreamConfig },
      ...WORKERS,
    });
    upstream = await acquirer.addMerchant({ channels: 1 });
    gw = await testGateway({
      clock,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
      connector: oppClient({
        fetch: (url, init) =>
          reportsDown && url.includes('/reports/')
            ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
            : acquirer.app.request(url, init),
      }),
      settlement: { autoStart: false },
      ...WORKERS,
    });
    merchant = await gw.addMerchant({
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
    const otherUpstream = await acquirer.addMerchant({ channels: 1 });
    other = await gw.addMerchant({
      channels: 1,
      mode: 'LIVE',
      settings: {
        connector: {
          baseUrl: 'https://acquirer.test',
          entityId: otherUpstream.entityId,
          accessToken: otherUpstream.token,
        },
      },
    });
    const lateUpstream = await acquirer.addMerchant({ channels: 1 });
    late = await gw.addMerchant({
      channels: 1,
      mode: 'LIVE',
      settings: {
        connector: {
          baseUrl: 'https://acquirer.test',
          entityId: lateUpstream.entityId,
          accessToken: lateUpstream.token,
        },
      },
    });
    const pay = async (name: string, path: string, params: Record<string, string>, who = merchant) => {
      const res = await gw.live.post(path, { entityId: who.entityId, ...params }, { token: who.token });
      expect(res.status, res.text).toBe(200);
      ids[name] = res.body.id;
      ids[`${name}.theirs`] = res.body.resultDetails.ConnectorTxID1;
      clock.advance(60_000);
    };
    await pay('usd', '/v1/payments', { ...VISA_CARD, amount: '100.00', currency: 'USD', paymentType: 'DB' });
    await pay('eur', '/v1/payments', { ...VISA_CARD, amount: '20.00', currency: 'EUR', paymentType: 'DB' });
    await pay('refund', `/v1/payments/${ids.eur}`, { amount: '5.00', currency: 'EUR', paymentType: 'RF' });
    await pay(
      'other',
      '/v1/payments',
      { ...VISA_CARD, amount: '3.00', currency: 'EUR', paymentType: 'DB' },
      other,
    );
    await pay(
      'late',
      '/v1/payments',
      { ...VISA_CARD, amount: '4.00', currency: 'EUR', paymentType: 'DB' },
      late,
    );
    // the gateway books a chargeback of the USD debit that the processor never reported
    const cb = await adminCall(
      gw.app,
      'POST',
      `/admin/v1/merchants/${merchant.merchantId}/payments/${ids.usd}/chargebacks`,
      { token: ADMIN_TOKEN, body: { chargebackResultCode: '000.100.220' } },
    );
    expect(cb.status, JSON.stringify(cb.body)).toBe(200);
    ids.cb = (cb.body as { id: string }).id;
    clock.advance(60_000);
    // and the processor settled a payment of the upstream account the gateway never made
    const alien = await acquirer.post(
      '/v1/payments',
      { entityId: upstream.entityId, ...VISA_CARD, amount: '7.00', currency: 'EUR', paymentType: 'DB' },
      { token: upstream.token },
    );
    expect(alien.status, alien.text).toBe(200);
    ids.alien = alien.body.id;
    ids.alienAt = clock.now().toISOString().slice(0, 19).replace('T', ' ');

    clock.advance(Date.parse('2026-12-01T03:00:00Z') - clock.now().getTime());
    // the processor settles its day first (its own run); then the gateway's, by the operator
    await acquirer.settlement.runOnce();
    const answer = await adminCall(
      gw.app,
      'POST',
      `/admin/v1/merchants/${merchant.merchantId}/settlement-runs`,
      {
        token: ADMIN_TOKEN,
        body: { date: DAY },
      },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    run = (answer.body as { accounts: unknown[] }).accounts.find(
      (a) => (a as { entityId: string }).entityId === merchant.entityId,
    );
    rows = checkReconciliationCsv(await readFile(run.file, 'utf8'));
  }, 120_000);
  afterAll(async () => {
    await gw?.cleanup();
    await acquirer?.cleanup();
  });

  const row = (id: string, type = 'SETTLED') =>
    rows.find((r) => (r.UniqueID === id || r.ConnectorTxId1 === id) && r.ReconciliationType === type);

  it('writes the live reconciliation file of the day', () => {
    expect(run.status).toBe('settled');
    expect(run.file).toMatch(new RegExp(`reconciliation_${merchant.entityId}_20261130_LIVE\\.csv$`));
  });

  it('takes the settled amount, the FX rate and the fee from the processor', () => {
    const usd = row(ids.usd!);
    // 100.00 USD × 0.912345 = 91.23 EUR; 2.5 % of it + 0.30 = 2.58 (the simulator would say 1.5 %)
    expect(usd).toMatchObject({
      Amount: '100.00',
      Currency: 'USD',
      SettlementAmount: '91.23',
      SettlementCurrency: 'EUR',
      SettlementFee: '2.58',
      SettlementFxRate: '0.91',
      SettlementStatus: 'SUCCESS',
      ConnectorTxId1: ids['usd.theirs'],
      MatchingStatus: 'MATCHED',
    });
    expect(row(ids.usd!, 'FEE')).toMatchObject({ PaymentType: 'CAPTURE_FEE', SettlementAmount: '2.58' });
    expect(row(ids.refund!)).toMatchObject({ SettlementAmount: '5.00', SettlementFee: '0.10' });
    expect(row(ids.refund!, 'FEE')).toMatchObject({ PaymentType: 'REFUND_FEE', SettlementAmount: '0.10' });
  });

  it('names the connector as clearing institute, never the simulator', () => {
    for (const r of rows) {
      expect(r.ClearingInsitituteName).not.toBe(SIMULATED_CLEARING_INSTITUTE);
      expect(r.ClearingInsitituteName).toBe('OPP connector acquirer.test');
    }
  });

  it('reports a payment the processor did not settle: FAILED in the file, named in the answer', () => {
    expect(row(ids.cb!, 'CHARGEBACK')).toMatchObject({ SettlementStatus: 'FAILED' });
    expect(run.processor.missing).toEqual([ids.cb]);
  });

  it('flags what the processor settled that the gateway lacks: NOT_MATCHED in the file, named in the answer', () => {
    expect(row(ids.alien!)).toMatchObject({
      UniqueID: '',
      ConnectorTxId1: ids.alien,
      SettlementAmount: '7.00',
      // when the processor says it was requested, read as UTC
      TxRequestTime: ids.alienAt,
      MatchingStatus: 'NOT_MATCHED',
    });
    expect(run.processor.unknown).toEqual([ids.alien]);
  });

  it('`gateway settlement run --date` writes the live file of a past day from the processor’s records', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['settlement', 'run', '--date', DAY, '--merchant', other.merchantId, '--json'],
      {
        openStore: () =>
          openStore({ dataDir: gw.dataDir, vault: testVault(), lockFolder: false, checkpoints: 'inline' }),
        output: { out: (l) => out.push(l), err: (l) => err.push(l) },
        openVault: () => testVault(),
        dataDir: gw.dataDir,
        clock,
        env: {},
        // the processor reached through the CLI's own HTTP client (here: the acquirer's app)
        fetch: (async (url: string, init?: RequestInit) => acquirer.app.request(url, init)) as typeof fetch,
      },
    );
    expect(code, err.join('\n')).toBe(0);
    const [account] = JSON.parse(out.join('\n'));
    expect(account).toMatchObject({ entityId: other.entityId, status: 'settled' });
    expect(account.processor).toMatchObject({ missingCount: 0, unknownCount: 0 });
    expect(account.file).toMatch(/_20261130_LIVE\.csv$/);
    const [settled] = checkReconciliationCsv(await readFile(account.file, 'utf8'));
    // the upstream's own simulated schedule for that channel: 1.5 % of 3.00, 4.5 cents rounded half-even
    expect(settled).toMatchObject({
      UniqueID: ids.other,
      ConnectorTxId1: ids['other.theirs'],
      SettlementAmount: '3.00',
      SettlementFee: '0.04',
      ClearingInsitituteName: 'OPP connector acquirer.test',
    });
  });

  it('a processor that cannot be asked leaves its channel’s day for a later run; the clock’s run settles it then', async () => {
    reportsDown = true;
    const answer = await adminCall(gw.app, 'POST', `/admin/v1/merchants/${late.merchantId}/settlement-runs`, {
      token: ADMIN_TOKEN,
      body: { date: DAY },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const accounts = (answer.body as { accounts: { entityId: string }[] }).accounts;
    expect(accounts.find((a) => a.entityId === late.entityId)).toMatchObject({
      status: 'not-settled',
      reason: expect.stringMatching(/could not be read/),
      file: null,
    });
    await gw.settlement.runOnce();
    expect(await gw.store.getSettlementRun(late.entityId, DAY)).toBeUndefined();
    reportsDown = false;
    await gw.settlement.runOnce();
    // its SETTLED record and its FEE record, as the processor wrote them
    expect(await gw.store.getSettlementRun(late.entityId, DAY)).toMatchObject({ recordCount: 2 });
  });
});
