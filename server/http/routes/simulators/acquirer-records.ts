/**
 * The simulated acquirer's settlement reports (test mode INTERNAL), raised on demand as its
 * chargebacks are: what the settlement run reconciles the gateway's payments against
 * (server/reporting/settlement-run/acquirer.ts; stored by server/storage/acquirer-records/).
 *
 * - `POST /simulators/acquirer/transfer-failures` (entityId, id of a successful test-mode
 *   bank-account payment: a DB, CP, RB, RF or CD with `bankAccount.*`): the acquirer reports
 *   that the transfer failed; the payment's day settles it FAILED (no fee, not in the totals).
 *   Reported once per payment: a repeat answers the first report.
 * - `POST /simulators/acquirer/records` (entityId, amount, currency; optional paymentType DB, CD or
 *   RF (default DB), paymentBrand, merchantTransactionId, date `yyyy-MM-dd` (default today, UTC)):
 *   a transaction the acquirer holds that the gateway made no payment for, NOT_MATCHED when its
 *   day is settled (unless its merchantTransactionId finds a payment of that day).
 *
 * A day already settled takes no more records (400 naming `id` or `date`): its file is written.
 * Credentials as for the acquirer's chargebacks (acquirer-caller.ts).
 */
import type { Context, Hono } from 'hono';
import { isKnownBrand } from '../../../../shared/brands';
import { newId } from '../../../../shared/engine/core/ids';
import type { Channel, Payment } from '../../../../shared/engine/core/model';
import { fromMinor, isToMinorError, type Minor, toMinor } from '../../../../shared/money';
import type { ParameterError } from '../../../../shared/params/errors';
import { checkFormat, type Format } from '../../../../shared/params/formats';
import { isSuccess, ResultCodes } from '../../../../shared/result-codes';
import type { AcquirerRecord } from '../../../storage/acquirer-records';
import type { GatewayEnv, RouteDeps } from '../../context';
import type { GatewayMiddleware } from '../../middleware';
import { HEX32, NO_SIMULATED_PAYMENT, refusedCaller, simulatedPayment } from './acquirer-caller';

/** The payment types whose money the acquirer transfers (PA.CP is stored as such). */
const TRANSFERRED = new Set(['DB', 'CP', 'RB', 'RF', 'CD', 'PA.CP']);
/** What a record without a payment books: a debit, a credit or a refund. */
const RECORD_TYPES = ['DB', 'CD', 'RF'];

/** The parameters of `/records`, each with its format and whether it is required. */
const RECORD_FIELDS: Readonly<Record<string, { readonly format: Format; readonly required: boolean }>> = {
  amount: { format: { t: 'AMT' }, required: true },
  currency: { format: { t: 'currency' }, required: true },
  paymentType: { format: { t: 'enum', values: RECORD_TYPES }, required: false },
  paymentBrand: { format: { t: 'AN', min: 1, max: 32 }, required: false },
  // the catalogue's merchantTransactionId (AN 8-255), the record's TransactionId
  merchantTransactionId: { format: { t: 'AN', min: 8, max: 255 }, required: false },
  date: { format: { t: 'DATE' }, required: false },
};
const CREDENTIALS = /^(entityId|authentication\.(userId|password|entityId))$/;

const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** A record as the routes answer it. */
function recordView(r: AcquirerRecord): Record<string, unknown> {
  return {
    id: r.id,
    entityId: r.channelId,
    ...(r.paymentId === undefined ? {} : { paymentId: r.paymentId }),
    date: r.date,
    status: r.status,
    paymentType: r.paymentType,
    amount: fromMinor(r.amount, r.currency),
    currency: r.currency,
    ...(r.brand === undefined ? {} : { paymentBrand: r.brand }),
    ...(r.merchantTransactionId === undefined ? {} : { merchantTransactionId: r.merchantTransactionId }),
  };
}

/** Why a payment cannot have a failed transfer, if it cannot. */
function notTransferable(payment: Payment): string | undefined {
  const bank = payment.details.bankAccount;
  if (bank === null || typeof bank !== 'object')
    return 'is not a bank-account payment (bankAccount.*): only a transfer can fail';
  if (!isSuccess(payment.resultCode) || !TRANSFERRED.has(payment.paymentType))
    return 'moved no money: only a successful DB, CP, RB, RF or CD is transferred';
  return undefined;
}

/** `/records`' parameters checked: all faults at once, or the record's fields. */
function readRecordForm(
  form: URLSearchParams,
): { errors: ParameterError[] } | { fields: Record<string, string | undefined>; amount: Minor } {
  const errors: ParameterError[] = [];
  const fields: Record<string, string | undefined> = {};
  for (const name of new Set(form.keys()))
    if (!(name in RECORD_FIELDS) && !CREDENTIALS.test(name))
      errors.push({ name, value: form.get(name), message: 'is not a parameter of this request' });
  for (const [name, { format, required }] of Object.entries(RECORD_FIELDS)) {
    const value = form.get(name);
    if (value === null) {
      if (required) errors.push({ name, value: null, message: 'is required' });
      continue;
    }
    const problem = checkFormat(format, value);
    if (problem !== undefined) errors.push({ name, value, message: problem });
    else fields[name] = value;
  }
  if (fields.paymentBrand !== undefined && !isKnownBrand(fields.paymentBrand))
    errors.push({
      name: 'paymentBrand',
      value: fields.paymentBrand,
      message: 'is not a brand the gateway knows',
    });
  const amount =
    fields.amount === undefined || fields.currency === undefined
      ? undefined
      : toMinor(fields.amount, fields.currency);
  if (amount !== undefined && isToMinorError(amount))
    errors.push({
      name: 'amount',
      value: fields.amount ?? null,
      message: 'has more decimals than the currency',
    });
  if (errors.length > 0 || amount === undefined || isToMinorError(amount)) return { errors };
  return { fields, amount };
}

/** The acquirer's report that a payment's transfer failed, on the payment's day. */
function failedTransfer(channel: Channel, payment: Payment, now: Date): AcquirerRecord {
  return {
    id: newId(),
    merchantId: channel.merchantId,
    channelId: channel.id,
    date: utcDay(payment.createdAt),
    paymentId: payment.id,
    status: 'FAILED',
    paymentType: payment.paymentType === 'PA.CP' ? 'DB' : payment.paymentType,
    amount: (payment.amount ?? 0) as Minor,
    currency: payment.currency ?? '',
    ...(payment.paymentBrand === undefined ? {} : { brand: payment.paymentBrand }),
    ...(payment.merchantTransactionId === undefined
      ? {}
      : { merchantTransactionId: payment.merchantTransactionId }),
    createdAt: now,
  };
}

export function acquirerRecordRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, mw: GatewayMiddleware): void {
  const { env } = deps;
  const invalid = (c: Context, errors: ParameterError[]) => mw.invalid(c, 400, errors);
  const notFound = (c: Context, what: string) =>
    env.send(c, 404, { code: ResultCodes.ENTITY_NOT_FOUND, description: what });

  /** Stores a record unless its day is settled already (under the settlement run's own lock). */
  const book = (c: Context, channel: Channel, record: AcquirerRecord, field: string, value: string) =>
    deps.store.exclusive(`settlement:${channel.id}:${record.date}`, async () => {
      if ((await deps.store.getSettlementRun(channel.id, record.date)) !== undefined)
        return invalid(c, [{ name: field, value, message: `its day ${record.date} is settled already` }]);
      const stored =
        (await deps.store.insertAcquirerRecord(record)) || record.paymentId === undefined
          ? record
          : ((await deps.store.getAcquirerRecordOfPayment(record.paymentId)) ?? record);
      return env.send(
        c,
        200,
        { code: ResultCodes.SUCCESS_INTERNAL, description: 'Request successfully processed in test mode' },
        recordView(stored),
      );
    });

  /** The test-mode channel the form names, or why not. */
  const channelOf = async (form: URLSearchParams): Promise<Channel | undefined> => {
    const entityId = form.get('entityId') ?? '';
    const channel = HEX32.test(entityId) ? await deps.store.getChannel(entityId) : undefined;
    return channel?.mode === 'TEST' ? channel : undefined;
  };

  app.post('/simulators/acquirer/transfer-failures', async (c) => {
    const form = new URLSearchParams(await c.req.text());
    const refused = await refusedCaller(c, deps, mw, form);
    if (refused !== undefined) return refused;
    const id = form.get('id') ?? '';
    const channel = await channelOf(form);
    const payment = await simulatedPayment(deps, channel, id);
    if (channel === undefined || payment === undefined) return notFound(c, NO_SIMULATED_PAYMENT);
    const problem = notTransferable(payment);
    if (problem !== undefined) return invalid(c, [{ name: 'id', value: id, message: problem }]);
    const record = failedTransfer(channel, payment, deps.clock.now());
    return book(c, channel, record, 'id', id);
  });

  app.post('/simulators/acquirer/records', async (c) => {
    const form = new URLSearchParams(await c.req.text());
    const refused = await refusedCaller(c, deps, mw, form);
    if (refused !== undefined) return refused;
    const channel = await channelOf(form);
    if (channel === undefined) return notFound(c, 'no test-mode entity with this entityId');
    const read = readRecordForm(form);
    if ('errors' in read) return invalid(c, read.errors);
    const { fields } = read;
    const now = deps.clock.now();
    const date = fields.date ?? utcDay(now);
    const record: AcquirerRecord = {
      id: newId(),
      merchantId: channel.merchantId,
      channelId: channel.id,
      date,
      status: 'SUCCESS',
      paymentType: fields.paymentType ?? 'DB',
      amount: read.amount,
      currency: fields.currency!,
      ...(fields.paymentBrand === undefined ? {} : { brand: fields.paymentBrand }),
      ...(fields.merchantTransactionId === undefined
        ? {}
        : { merchantTransactionId: fields.merchantTransactionId }),
      // when the acquirer took it: now, or midday of the day it is reported on
      createdAt: date === utcDay(now) ? now : new Date(`${date}T12:00:00.000Z`),
    };
    return book(c, channel, record, 'date', date);
  });
}
