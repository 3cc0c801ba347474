/**
 * The opp kind's `settle(day)` (issue 32 point 6): the upstream's own reconciliation records of
 * the day for the channel's account there, through the family's Reporting API
 * (`GET /reports/v1/reconciliations/aggregations?entityId&date.from&date.to`, then each
 * aggregation's records, `GET …/aggregations/{id}?entityId`), one ProcessorSettlement per
 * upstream payment: its SETTLED (or CHARGEBACK, CHARGEBACK REVERSAL) record and its FEE record
 * folded together, amounts, rate and fee exactly as the upstream wrote them.
 *
 * The upstream's `payment.id` is its own id (the gateway's ConnectorTxID1 of the payment); its
 * `merchantTransactionId` is the gateway's id for the payments the connector sent with it
 * (inquire.ts's withOurReference). No aggregation for the day: the upstream has not settled it
 * (yet), `reported: false`.
 */
import type { Connector, ConnectorFetched, ConnectorTarget } from '../../../shared/engine/core/ports';
import { isToMinorError, type Minor, toMinor } from '../../../shared/money';
import type { ProcessorDay, ProcessorSettlement, ProcessorUnreachable } from '../kit/contract';

export const AGGREGATIONS_PATH = '/reports/v1/reconciliations/aggregations';

type Json = Readonly<Record<string, unknown>>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The family's payment type of a record, by its reconciliation and transaction types. */
function paymentTypeOf(
  recordType: string,
  transactionType: string,
): ProcessorSettlement['paymentType'] | undefined {
  if (recordType === 'CHARGEBACK') return 'CB';
  if (recordType === 'CHARGEBACK REVERSAL') return 'CR';
  const byType: Readonly<Record<string, ProcessorSettlement['paymentType']>> =
    recordType === 'FEE'
      ? { AUTH_FEE: 'PA', CANCEL_FEE: 'RV', CAPTURE_FEE: 'DB', REFUND_FEE: 'RF' }
      : { DEBIT: 'DB', REFUND: 'RF', CREDIT: 'CD' };
  return byType[transactionType];
}

/** A decimal amount of the answer in minor units; undefined when it is not one of `currency`. */
function minor(value: unknown, currency: string): Minor | undefined {
  if (typeof value !== 'string') return undefined;
  const unsigned = value.startsWith('-') ? value.slice(1) : value;
  const parsed = toMinor(unsigned, currency);
  return isToMinorError(parsed) ? undefined : parsed;
}

/** A time of the family's answers (`yyyy-MM-dd HH:mm:ss`, UTC, or with its offset) as an instant. */
function instantOf(value: string): Date {
  const iso = value.replace(' ', 'T');
  return new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(iso) ? iso : `${iso}Z`);
}

/** One upstream payment's records, folded as they come (its settled record, its fee). */
class Folded {
  private readonly byId = new Map<string, ProcessorSettlement>();

  /** Takes one record of the answer; false when it is not a record this can read. */
  take(record: unknown): boolean {
    if (!isObject(record) || !isObject(record.settlement)) return false;
    const s = record.settlement;
    const theirId = isObject(record.payment) ? text(record.payment.id) : undefined;
    const currency = text(record.currency);
    const settlementCurrency = text(s.currency);
    const type = paymentTypeOf(String(record.recordType), String(record.transactionType));
    if (
      theirId === undefined ||
      currency === undefined ||
      settlementCurrency === undefined ||
      type === undefined
    )
      return false;
    const amount = minor(record.amount, currency);
    const settled = minor(s.amount, settlementCurrency);
    if (amount === undefined || settled === undefined) return false;
    const before = this.byId.get(theirId);
    const isFee = record.recordType === 'FEE';
    const brand = text(record.paymentBrand);
    const requestTime = text(record.presentmentDate);
    const gatewayId = text(record.merchantTransactionId);
    const settlement = {
      ...before?.settlement,
      currency: settlementCurrency,
      fxRate: text(s.fxRate) ?? before?.settlement.fxRate ?? '1.00',
      status:
        s.status === 'FAILED' ? ('FAILED' as const) : (before?.settlement.status ?? ('SUCCESS' as const)),
      // a FEE record's amount is the fee; the settled record's `fee` repeats it (read if no FEE record follows)
      ...(isFee ? { fee: settled } : { amount: settled }),
      ...(!isFee && before?.settlement.fee === undefined && minor(s.fee, settlementCurrency) !== undefined
        ? { fee: minor(s.fee, settlementCurrency) }
        : {}),
    };
    this.byId.set(theirId, {
      theirId,
      ...(gatewayId === undefined ? {} : { gatewayId }),
      // a fee-only payment (PA, RV) keeps its type until a settled record says otherwise
      paymentType: isFee && before !== undefined ? before.paymentType : type,
      amount,
      currency,
      ...(brand === undefined ? {} : { brand }),
      ...(requestTime === undefined ? {} : { requestTime: instantOf(requestTime) }),
      settlement,
    });
    return true;
  }

  settlements(): ProcessorSettlement[] {
    return [...this.byId.values()];
  }
}

/** The upstream's records of `day` for the target's account, or why they could not be read. */
export async function settleDay(
  client: Connector,
  target: ConnectorTarget,
  day: string,
): Promise<ProcessorDay | ProcessorUnreachable> {
  if (client.get === undefined) return { technical: 'refused' };
  const get = client.get.bind(client);
  const entity = `entityId=${encodeURIComponent(target.entityId)}`;
  const list = await get(target, `${AGGREGATIONS_PATH}?${entity}&date.from=${day}&date.to=${day}`);
  const aggregations = listOf(list, 'aggregations');
  if (!Array.isArray(aggregations)) return { technical: 'technical' in list ? list.technical : 'uncertain' };
  const folded = new Folded();
  for (const aggregation of aggregations) {
    const id = isObject(aggregation) ? text(aggregation.id) : undefined;
    if (id === undefined) return { technical: 'uncertain' };
    const detail = await get(target, `${AGGREGATIONS_PATH}/${encodeURIComponent(id)}?${entity}`);
    const records = listOf(detail, 'records');
    if (!Array.isArray(records)) return { technical: 'technical' in detail ? detail.technical : 'uncertain' };
    for (const record of records) folded.take(record);
  }
  return { reported: aggregations.length > 0, settlements: folded.settlements() };
}

/** The answer's list under `key`; undefined when the answer is not the family's success with one. */
function listOf(read: ConnectorFetched, key: string): unknown {
  if (!('json' in read) || !isObject(read.json)) return undefined;
  const code = isObject(read.json.result) ? read.json.result.code : undefined;
  return typeof code === 'string' && code.startsWith('000.') ? read.json[key] : undefined;
}
