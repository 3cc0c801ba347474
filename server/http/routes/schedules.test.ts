/**
 * /scheduling/v1/schedules over HTTP: creation with job.* fields and with job.expression (L, W,
 * #, year), validation naming each field, registration refusals, the LIVE refusal, GET, DELETE
 * (deschedule), other merchants' ids, and the SCHEDULE webhook rows. The clock is fake
 * (2026-11-21 12:00:00 UTC, a Saturday), so every next run time below is hand-checked.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../shared/engine/core/ids';
import { SQLITE_FILE } from '../../storage/open';
import { type FakeClock, fakeClock } from '../../test-kit/clock';
import { VISA_CARD_WITHOUT_CVV } from '../../test-kit/fixtures/cards';
import {
  TEST_COMMIT,
  type TestGateway,
  type TestMerchant,
  type TestResponse,
  testGateway,
} from '../../test-kit/gateway';
import { storedWebhook } from '../../test-kit/webhooks';

const PATH = '/scheduling/v1/schedules';

function expectParameterErrors(res: TestResponse, names: readonly string[]): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.result.code).toBe('200.300.404');
  expect(res.body.id).toBeUndefined();
  expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name).sort()).toEqual(
    [...names].sort(),
  );
}

describe('/scheduling/v1/schedules', () => {
  let clock: FakeClock;
  let gw: TestGateway;
  let m: TestMerchant;
  let other: TestMerchant;
  /** A registration without an agreement (POST /v1/registrations). */
  let plainReg: string;
  /** A registration left by a cardholder-initiated INITIAL payment, with its agreement ids. */
  let agreementReg: { id: string; initialTransactionId: string; agreementId: string };

  const create = (params: Record<string, string>, who: TestMerchant = m) =>
    gw.post(
      PATH,
      { entityId: who.entityId, amount: '9.99', currency: 'EUR', paymentType: 'DB', ...params },
      { token: who.token },
    );

  beforeAll(async () => {
    clock = fakeClock('2026-11-21T12:00:00.000Z');
    gw = await testGateway({
      clock,
      scheduler: { autoStart: false },
      pending: { autoStart: false },
      notifier: { autoStart: false },
      webhooks: { autoStart: false },
    });
    m = await gw.addMerchant({ channels: 2 });
    other = await gw.addMerchant({ channels: 1 });
    const reg = await gw.post(
      '/v1/registrations',
      { entityId: m.entityId, ...VISA_CARD_WITHOUT_CVV },
      { token: m.token },
    );
    expect(reg.status, reg.text).toBe(200);
    plainReg = reg.body.id;
    const initial = await gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '1.00',
        currency: 'EUR',
        paymentType: 'DB',
        createRegistration: 'true',
        'standingInstruction.mode': 'INITIAL',
        'standingInstruction.source': 'CIT',
        'standingInstruction.type': 'RECURRING',
        ...VISA_CARD_WITHOUT_CVV,
      },
      { token: m.token },
    );
    expect(initial.status, initial.text).toBe(200);
    agreementReg = {
      id: initial.body.registrationId,
      initialTransactionId: initial.body.standingInstruction.initialTransactionId,
      agreementId: initial.body.standingInstruction.agreementId,
    };
    expect(agreementReg.id).toMatch(/^[0-9a-f]{32}$/);
  }, 60_000);
  afterAll(async () => {
    await gw?.cleanup();
  });

  describe('create', () => {
    it('with job.* fields: the spec defaults fill the rest, the answer echoes the job', async () => {
      const res = await create({
        registrationId: plainReg,
        'job.name': 'daily coffee',
        'job.second': '0',
        'job.minute': '30',
        'job.hour': '9',
        'job.dayOfMonth': '*',
        'job.month': '*',
        'job.noticeUnit': 'DAY',
        'job.noticeNumber': '14',
        'job.durationUnit': 'MONTH',
        'job.durationNumber': '12',
        'job.noticeCallable': 'DURATION_END',
        merchantTransactionId: 'sub-0001',
      });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
      expect(res.body.result).toEqual({
        code: '000.100.110',
        description: "Request successfully processed in 'Merchant in Integrator Test Mode'",
      });
      expect(res.body.id).toMatch(/^[0-9a-f]{32}$/);
      expect(res.body.buildNumber).toBe(`${TEST_COMMIT}@2026-11-21 10:00:00 +0000`);
      expect(res.body.ndc).toMatch(new RegExp(`^${m.entityId}-[0-9a-f]{32}$`));
      expect(res.body).toMatchObject({
        registrationId: plainReg,
        paymentType: 'DB',
        amount: '9.99',
        currency: 'EUR',
        merchantTransactionId: 'sub-0001',
        state: 'ACTIVE',
        // 12:00 on the 21st: 09:30 has passed today
        nextRunTime: '2026-11-22 09:30:00',
        runs: [],
        job: {
          name: 'daily coffee',
          second: '0',
          minute: '30',
          hour: '9',
          dayOfMonth: '*',
          month: '*',
          noticeUnit: 'DAY',
          noticeNumber: '14',
          durationUnit: 'MONTH',
          durationNumber: '12',
          noticeCallable: 'DURATION_END',
          // dayOfWeek not given: `?`; year: every year
          expression: '0 30 9 * * ? *',
        },
      });
      // A registration without an agreement: recurring, repeated, nothing to quote.
      expect(res.body.standingInstruction).toEqual({
        type: 'RECURRING',
        recurringType: 'SUBSCRIPTION',
        mode: 'REPEATED',
      });
    });

    // Regression (double charges after a crash): the schedule committed, the process died before
    // its response was stored, and the merchant's retry with the same Idempotency-Key created a
    // second schedule (charging twice on every run). The schedule now takes the key in its own
    // transaction; the retry finds it and answers that schedule.
    it('answers the schedule that took an Idempotency-Key whose response was never stored', async () => {
      const params = { entityId: m.entityId, amount: '9.99', currency: 'EUR', paymentType: 'DB' };
      const body = { ...params, registrationId: plainReg, 'job.expression': '0 0 6 1 * ?' };
      const headers = { 'Idempotency-Key': `schedule-${newId()}` };
      const first = await gw.post(PATH, body, { token: m.token, headers });
      expect(first.status, first.text).toBe(200);
      const db = new BetterSqlite3(join(gw.dataDir, SQLITE_FILE));
      try {
        const row = db
          .prepare('SELECT status, body, schedule_id FROM idempotent_responses WHERE key = ?')
          .get(headers['Idempotency-Key']) as { status: number; body: string; schedule_id: string };
        expect(row).toMatchObject({ status: 200, schedule_id: first.body.id });
        expect(row.body).toMatch(/^v1:/);
        // What a crash between the schedule's commit and the stored response leaves.
        db.prepare("UPDATE idempotent_responses SET status = 0, body = '' WHERE key = ?").run(
          headers['Idempotency-Key'],
        );
      } finally {
        db.close();
      }
      const schedules = () => {
        const read = new BetterSqlite3(join(gw.dataDir, SQLITE_FILE), { readonly: true });
        try {
          return (
            read.prepare('SELECT count(*) AS n FROM schedules WHERE merchant_id = ?').get(m.merchantId) as {
              n: number;
            }
          ).n;
        } finally {
          read.close();
        }
      };
      const before = schedules();
      const again = await gw.post(PATH, body, { token: m.token, headers });
      expect(again.status, again.text).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.id).toBe(first.body.id);
      expect(again.body.nextRunTime).toBe(first.body.nextRunTime);
      expect(schedules()).toBe(before);
    });

    it('with the agreement of an initial payment: merchant-initiated, quoting its ids', async () => {
      const res = await create({
        registrationId: agreementReg.id,
        'job.expression': '0 0 6 1 * ?',
        'standingInstruction.agreementId': agreementReg.agreementId,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.standingInstruction).toEqual({
        type: 'RECURRING',
        recurringType: 'SUBSCRIPTION',
        mode: 'REPEATED',
        source: 'MIT',
        initialTransactionId: agreementReg.initialTransactionId,
        agreementId: agreementReg.agreementId,
      });
      expect(res.body.nextRunTime).toBe('2026-12-01 06:00:00');
    });

    it.each([
      // the last day of the month, in 2027 only
      ['0 0 10 L * ? 2027', '2027-01-31 10:00:00', '0 0 10 L * ? 2027'],
      // the weekday nearest the 15th: 15 Dec 2026 is a Tuesday
      ['0 0 8 15W * ?', '2026-12-15 08:00:00', '0 0 8 15W * ? *'],
      // the last weekday of the month: Monday 30 Nov 2026
      ['0 0 8 LW * ?', '2026-11-30 08:00:00', '0 0 8 LW * ? *'],
      // the third Friday (6#3): 20 Nov has passed, 18 Dec 2026
      ['0 0 9 ? * 6#3', '2026-12-18 09:00:00', '0 0 9 ? * 6#3 *'],
      // the last Monday (2L) of the month
      ['0 0 9 ? * 2L', '2026-11-30 09:00:00', '0 0 9 ? * 2L *'],
      // New Year 2028 only
      ['0 0 0 1 1 ? 2028', '2028-01-01 00:00:00', '0 0 0 1 1 ? 2028'],
    ])('with job.expression %s: next run %s', async (expression, next, effective) => {
      const res = await create({ registrationId: plainReg, 'job.expression': expression });
      expect(res.status, res.text).toBe(200);
      expect(res.body.nextRunTime).toBe(next);
      expect(res.body.job).toEqual({ expression: effective });
    });

    it('job.startDate delays the first run; job.expression overrides the job.* fields', async () => {
      const res = await create({
        registrationId: plainReg,
        'job.hour': '3',
        'job.expression': '0 15 * * * ?',
        'job.startDate': '2027-03-01 10:20:00',
        'job.endDate': '2027-03-02 00:00:00',
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.nextRunTime).toBe('2027-03-01 11:15:00');
      expect(res.body.job.expression).toBe('0 15 * * * ? *');
    });
  });

  describe('validation', () => {
    it('a job.* field out of range is named (the catalogue)', async () => {
      expectParameterErrors(
        await create({ registrationId: plainReg, 'job.hour': '24', 'job.dayOfMonth': '32' }),
        ['job.hour', 'job.dayOfMonth'],
      );
    });

    it('both day fields restricted: both named', async () => {
      const res = await create({ registrationId: plainReg, 'job.dayOfMonth': '15', 'job.dayOfWeek': 'MON' });
      expectParameterErrors(res, ['job.dayOfMonth', 'job.dayOfWeek']);
      expect(res.body.result.parameterErrors[0].message).toMatch(/both restricted/);
    });

    it('an expression of the wrong shape is named job.expression', async () => {
      expectParameterErrors(await create({ registrationId: plainReg, 'job.expression': '0 0 * * *' }), [
        'job.expression',
      ]);
    });

    it('an expression that never fires (30 February) is named job.expression', async () => {
      const res = await create({ registrationId: plainReg, 'job.expression': '0 0 0 30 2 ?' });
      expectParameterErrors(res, ['job.expression']);
      expect(res.body.result.parameterErrors[0].message).toMatch(/never fires/);
    });

    it('job.* fields that never fire in the time left (a past year) are named', async () => {
      expectParameterErrors(
        await create({
          registrationId: plainReg,
          'job.year': '2025',
          'job.month': '*',
          'job.dayOfMonth': '*',
        }),
        ['job.year', 'job.month', 'job.dayOfMonth'],
      );
    });

    it('no fire time before job.endDate, or within the duration, names that bound', async () => {
      const base = { registrationId: plainReg, 'job.expression': '0 0 10 L * ? 2027' };
      expectParameterErrors(await create({ ...base, 'job.endDate': '2026-12-31 23:59:59' }), ['job.endDate']);
      expectParameterErrors(
        await create({ ...base, 'job.durationUnit': 'WEEK', 'job.durationNumber': '4' }),
        ['job.durationNumber'],
      );
    });

    it('an end before the start and a number without its unit', async () => {
      expectParameterErrors(
        await create({
          registrationId: plainReg,
          'job.expression': '0 0 0 * * ?',
          'job.startDate': '2027-01-02 00:00:00',
          'job.endDate': '2027-01-01 00:00:00',
        }),
        ['job.endDate'],
      );
      expectParameterErrors(
        await create({ registrationId: plainReg, 'job.expression': '0 0 0 * * ?', 'job.noticeNumber': '3' }),
        ['job.noticeUnit'],
      );
    });

    it("no job.* fields take the spec's defaults: 1 January at midnight, dayOfWeek ? as Quartz needs", async () => {
      const res = await create({ registrationId: plainReg, 'job.name': 'yearly' });
      expect(res.status, res.text).toBe(200);
      expect(JSON.stringify(res.body)).toContain('0 0 0 1 1 ? *');
    });

    it('every fault at once: money, type, registration id, job', async () => {
      const res = await gw.post(
        PATH,
        { entityId: m.entityId, amount: '9.9', paymentType: 'RF', 'job.minute': '61' },
        { token: m.token },
      );
      expectParameterErrors(res, ['amount', 'currency', 'paymentType', 'registrationId', 'job.minute']);
    });

    it('a standing instruction that is not a merchant-initiated repeat of this registration', async () => {
      expectParameterErrors(
        await create({
          registrationId: agreementReg.id,
          'job.expression': '0 0 0 * * ?',
          'standingInstruction.mode': 'INITIAL',
          'standingInstruction.source': 'CIT',
          'standingInstruction.initialTransactionId': 'not-the-agreement',
        }),
        [
          'standingInstruction.mode',
          'standingInstruction.source',
          'standingInstruction.initialTransactionId',
        ],
      );
    });
  });

  describe('refusals', () => {
    it('an unknown registration: 100.150.200; a deleted one: 100.150.202', async () => {
      const unknown = await create({ registrationId: newId(), 'job.expression': '0 0 0 * * ?' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.result).toEqual({
        code: '100.150.200',
        description: 'registration does not exist',
      });
      expect(unknown.body.id).toBeUndefined();

      const reg = await gw.post(
        '/v1/registrations',
        { entityId: m.entityId, ...VISA_CARD_WITHOUT_CVV },
        { token: m.token },
      );
      await gw.send('DELETE', `/v1/registrations/${reg.body.id}?entityId=${m.entityId}`, undefined, {
        token: m.token,
      });
      const deleted = await create({ registrationId: reg.body.id, 'job.expression': '0 0 0 * * ?' });
      expect(deleted.status).toBe(400);
      expect(deleted.body.result.code).toBe('100.150.202');
    });

    it("another merchant's registration is unknown", async () => {
      const res = await create({ registrationId: plainReg, 'job.expression': '0 0 0 * * ?' }, other);
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('100.150.200');
    });

    it('a LIVE channel: 100.360.400 (schedule module not configured for LIVE)', async () => {
      const live = await gw.addMerchant({ channels: 1, mode: 'LIVE' });
      // The registration itself is refused on a live channel (no acquirer), so store one directly.
      const id = newId();
      await gw.store.insertRegistration({
        id,
        merchantId: live.merchantId,
        channelId: live.entityId,
        paymentBrand: 'VISA',
        details: {},
        deletedAt: null,
        createdAt: clock.now(),
      });
      // on the live address: a live token is refused on the test one (403)
      const res = await gw.live.post(
        PATH,
        {
          entityId: live.entityId,
          amount: '9.99',
          currency: 'EUR',
          paymentType: 'DB',
          registrationId: id,
          'job.expression': '0 0 0 * * ?',
        },
        { token: live.token },
      );
      expect(res.status).toBe(400);
      expect(res.body.result).toEqual({
        code: '100.360.400',
        description: 'schedule module not configured for LIVE transaction mode',
      });
    });

    it('credentials as everywhere: none 401, another merchant’s entityId 403', async () => {
      const none = await gw.post(PATH, { entityId: m.entityId, amount: '1.00' });
      expect(none.status).toBe(401);
      const foreign = await gw.post(
        PATH,
        {
          entityId: other.entityId,
          registrationId: plainReg,
          amount: '1.00',
          currency: 'EUR',
          paymentType: 'DB',
          'job.expression': '0 0 0 * * ?',
        },
        { token: m.token },
      );
      expect(foreign.status).toBe(403);
    });
  });

  describe('GET and DELETE', () => {
    let id: string;
    beforeAll(async () => {
      const res = await create({ registrationId: plainReg, 'job.expression': '0 0 12 ? * MON-FRI' });
      expect(res.status, res.text).toBe(200);
      id = res.body.id;
    });

    it('GET answers the schedule, its job, state and next run', async () => {
      const res = await gw.get(`${PATH}/${id}`, { entityId: m.entityId }, { token: m.token });
      expect(res.status, res.text).toBe(200);
      expect(res.body.result).toEqual({ code: '000.000.100', description: 'successful request' });
      expect(res.body).toMatchObject({
        id,
        registrationId: plainReg,
        state: 'ACTIVE',
        // Saturday now: Monday noon
        nextRunTime: '2026-11-23 12:00:00',
        job: { expression: '0 0 12 ? * MON-FRI *' },
        runs: [],
      });
    });

    it("another merchant's id, an unknown id, a channel the token may not use: 404", async () => {
      const foreign = await gw.get(`${PATH}/${id}`, { entityId: other.entityId }, { token: other.token });
      expect(foreign.status).toBe(404);
      expect(foreign.body.result.code).toBe('200.300.406');
      expect(foreign.body.registrationId).toBeUndefined();
      const unknown = await gw.get(`${PATH}/${newId()}`, { entityId: m.entityId }, { token: m.token });
      expect(unknown.status).toBe(404);
      const restricted = await gw.addToken(m.merchantId, [m.entityIds[1]!]);
      const hidden = await gw.get(
        `${PATH}/${id}`,
        { entityId: m.entityIds[1]! },
        { token: restricted.token },
      );
      expect(hidden.status).toBe(404);
    });

    it("DELETE of another merchant's id: 404 100.360.303, and the schedule stays", async () => {
      const res = await gw.send('DELETE', `${PATH}/${id}?entityId=${other.entityId}`, undefined, {
        token: other.token,
      });
      expect(res.status).toBe(404);
      expect(res.body.result).toEqual({
        code: '100.360.303',
        description: 'cannot deschedule(DS) unscheduled job',
      });
      const still = await gw.get(`${PATH}/${id}`, { entityId: m.entityId }, { token: m.token });
      expect(still.body.state).toBe('ACTIVE');
    });

    it('DELETE deschedules (CANCELLED, no next run); again: 400 100.360.303', async () => {
      const res = await gw.send('DELETE', `${PATH}/${id}?entityId=${m.entityId}`, undefined, {
        token: m.token,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.000.100');
      expect(res.body.id).toBe(id);
      expect(res.body.state).toBe('CANCELLED');
      expect(res.body.nextRunTime).toBeUndefined();
      const again = await gw.send('DELETE', `${PATH}/${id}?entityId=${m.entityId}`, undefined, {
        token: m.token,
      });
      expect(again.status).toBe(400);
      expect(again.body.result.code).toBe('100.360.303');
      const shown = await gw.get(`${PATH}/${id}`, { entityId: m.entityId }, { token: m.token });
      expect(shown.body.state).toBe('CANCELLED');
      const unknown = await gw.send('DELETE', `${PATH}/${newId()}?entityId=${m.entityId}`, undefined, {
        token: m.token,
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.result.code).toBe('100.360.303');
    });
  });

  it('SCHEDULE webhooks: CREATED, UPDATED with each run, DELETED, in the outbox', async () => {
    const w = await gw.addMerchant({ channels: 1 });
    const hookId = newId();
    await gw.store.insertWebhook(
      storedWebhook(w.merchantId, { id: hookId, types: ['SCHEDULE', 'PAYMENT'], createdAt: clock.now() }),
    );
    const reg = await gw.post(
      '/v1/registrations',
      { entityId: w.entityId, ...VISA_CARD_WITHOUT_CVV },
      { token: w.token },
    );
    const created = await create({ registrationId: reg.body.id, 'job.expression': '0 * * * * ?' }, w);
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as string;

    clock.advance(60_000);
    expect(await gw.scheduler.runOnce()).toBe(1);
    const shown = await gw.get(`${PATH}/${id}`, { entityId: w.entityId }, { token: w.token });
    expect(shown.body.runs).toHaveLength(1);
    const paymentId = shown.body.runs[0].paymentId as string;
    expect(shown.body.runs[0]).toMatchObject({ status: 'EXECUTED', result: { code: '000.100.110' } });

    const removed = await gw.send('DELETE', `${PATH}/${id}?entityId=${w.entityId}`, undefined, {
      token: w.token,
    });
    expect(removed.status).toBe(200);

    const deliveries = (await gw.store.listDeliveries(w.merchantId, { limit: 100 })).reverse();
    const notes = deliveries.map((d) => d.notification);
    const schedules = notes.filter((n) => n.type === 'SCHEDULE');
    expect(schedules.map((n) => n.action)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    for (const n of schedules) {
      expect(n.payload.id).toBe(id);
      expect(n.payload.result).toEqual({
        code: '000.100.110',
        description: "Request successfully processed in 'Merchant in Integrator Test Mode'",
      });
    }
    expect(schedules[0]!.payload).toMatchObject({ state: 'ACTIVE', runs: [] });
    expect(schedules[1]!.payload).toMatchObject({
      state: 'ACTIVE',
      runs: [{ scheduledTime: '2026-11-21 12:01:00', status: 'EXECUTED', paymentId }],
    });
    expect(schedules[2]!.payload).toMatchObject({ state: 'CANCELLED' });
    // The run's payment is notified as a PAYMENT of its own, before the schedule's UPDATED.
    const payment = notes.find((n) => n.type === 'PAYMENT' && n.payload.id === paymentId);
    expect(payment?.payload).toMatchObject({ registrationId: reg.body.id, amount: '9.99' });
    expect(notes.indexOf(payment!)).toBeLessThan(notes.indexOf(schedules[1]!));
    for (const d of deliveries) expect(d.webhookId).toBe(hookId);
  });
});
