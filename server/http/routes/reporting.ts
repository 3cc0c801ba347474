/**
 * The Reporting API (spec: "Reporting parameters"; decisions: `/reports/v1/reconciliations/aggregations[/{id}]`):
 *
 * - `GET /reports/v1/reconciliations/aggregations?entityId&date.from&date.to[&currency]`: the
 *   settlements ("aggregations") of the merchant account `entityId` names (or the token's only one)
 *   whose settlement day is in the range, both ends included, at most {@link MAX_RANGE_DAYS} days;
 *   by day, then currency. Answered as `aggregations: [...]` with `000.000.100`; none is an empty list.
 * - `GET …/aggregations/{id}?entityId[&sortValue=SettlementTxDate][&sortOrder=ASC|DESC|asc|desc]`:
 *   the aggregation and its `records: [...]`, in the spec's API names. SettlementTxDate orders by
 *   the settlement date, then the transaction's request time (a FEE record stays after its
 *   transaction's record); ASC by default, DESC is the exact reverse. date.from/date.to are not
 *   needed here (sent, they are checked and ignored).
 * - `GET …/aggregations/{id}/file` (or `…/{id}` with `Accept: text/csv`): the same records as the
 *   reconciliation CSV (`text/csv`), byte for byte what the FTP file holds for that currency
 *   (text cells that start a formula neutralised unless GATEWAY_CSV_NEUTRALISE=off; the JSON never is).
 *
 * Validation through the request kind `reporting` (400 with one parameterErrors entry per bad
 * parameter). Authentication, channel and scope as in the Query API (the shared middleware): the token, its channels (all of its
 * merchant's when it names none); an id of another merchant or of a channel the token may not
 * use is a 404.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { asText } from '../../../shared/engine/answers/text';
import type { AccessToken } from '../../../shared/engine/core/model';
import { fromMinor, type Minor } from '../../../shared/money';
import type { ParameterError } from '../../../shared/params/errors';
import { parseRequest, type RequestOf } from '../../../shared/params/requests';
import { ResultCodes } from '../../../shared/result-codes';
import {
  formatRequestTime,
  fxRateDec2,
  RECONCILIATION_HEADER,
  reconciliationCsvLines,
} from '../../../shared/settlement';
import { csvOptions } from '../../reporting/settlement-run/model';
import type { Settlement, StoredSettlementRecord } from '../../storage/settlements';
import type { BodyEnv, GatewayEnv, RequestEnv, RouteDeps } from '../context';
import type { GatewayMiddleware } from '../middleware';
import { mayUse } from '../middleware/channel';
import { type Envelope, invalid, newNdc } from '../middleware/envelope';

/** The longest range of days one list request may span (date.from to date.to, both included). */
export const MAX_RANGE_DAYS = 31;

const BASE = '/reports/v1/reconciliations/aggregations';
const ID = /^[0-9a-f]{32}$/;
const DAY_MS = 86_400_000;
const OK = { code: ResultCodes.SUCCESSFUL_REQUEST, description: 'successful request' };

type ReportingRequest = RequestOf<'reporting'>;

/** A signed DEC2 amount: `12.50`, `-3.00`. */
const signed = (minor: number, currency: string): string =>
  minor < 0 ? `-${fromMinor(-minor as Minor, currency)}` : fromMinor(minor as Minor, currency);

/** An aggregation as answered: its counts as text, as every leaf of an answer (answers/text.ts). */
export function aggregationJson(s: Settlement): Record<string, unknown> {
  return asText({
    id: s.id,
    entityId: s.channelId,
    date: s.date,
    currency: s.currency,
    status: s.status,
    recordCount: s.recordCount,
    counts: { ...s.counts },
    totals: {
      positive: signed(s.totals.positive, s.currency),
      negative: signed(s.totals.negative, s.currency),
      fees: signed(s.totals.fees, s.currency),
      net: signed(s.totals.positive - s.totals.negative, s.currency),
    },
  }) as Record<string, unknown>;
}

const defined = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));

/** A record in the spec's API names (the CSV column's API name, nested at its dots). */
export function recordJson({
  record: r,
  merchantTransactionId,
  merchantInvoiceId,
}: StoredSettlementRecord): Record<string, unknown> {
  const s = r.settlement;
  const { kind, ...held } = r.account ?? {};
  const account = r.account && defined(held);
  // spec: card.* or bankAccount.*; a record kept before its kind was: a bankCode is a bank's
  const isBank = kind === undefined ? held.bankCode !== undefined : kind === 'bankAccount';
  return defined({
    recordType: r.recordType,
    transactionType: r.transactionType,
    settlement: defined({
      id: s.id,
      amount: fromMinor(s.amount, s.currency),
      currency: s.currency,
      fee: s.fee === undefined ? undefined : fromMinor(s.fee, s.currency),
      fxRate: fxRateDec2(s.fxRate),
      date: s.date,
      status: s.status,
      format: s.format,
      cashflow: r.cashflow,
    }),
    clearingInstitute: defined({ ...r.clearingInstitute }),
    ...(account && Object.keys(account).length > 0 ? { [isBank ? 'bankAccount' : 'card']: account } : {}),
    merchantAccount: defined({ ...r.merchantAccount }),
    pspEntityId: r.pspEntityId,
    divisionEntityId: r.divisionId,
    merchantEntityId: r.merchantId,
    payment: r.payment.id === undefined ? undefined : { id: r.payment.id },
    shortId: r.payment.shortId,
    merchantTransactionId,
    merchantInvoiceId,
    amount: fromMinor(r.payment.amount, r.payment.currency),
    currency: r.payment.currency,
    paymentBrand: r.payment.brand,
    presentmentDate: r.payment.requestTime && formatRequestTime(r.payment.requestTime),
    descriptor: r.payment.descriptor,
    result: r.reason && defined({ code: r.reason.code, description: r.reason.description }),
    matchedTransactions: {
      status: r.matchingStatus,
      payment: r.matchedTransactions.map((id) => ({ id })),
    },
    chargebackTransaction: r.chargebackId === undefined ? undefined : { id: r.chargebackId },
  });
}

/** SettlementTxDate order: settlement date, request time, stored order; DESC reverses it. */
export function sortRecords(
  records: readonly StoredSettlementRecord[],
  order: 'ASC' | 'DESC',
): StoredSettlementRecord[] {
  const keyed = records.map((stored, seq) => ({ stored, seq }));
  keyed.sort((a, b) => {
    const x = a.stored.record;
    const y = b.stored.record;
    if (x.settlement.date !== y.settlement.date) return x.settlement.date < y.settlement.date ? -1 : 1;
    const tx = x.payment.requestTime?.getTime() ?? 0;
    const ty = y.payment.requestTime?.getTime() ?? 0;
    return tx - ty || a.seq - b.seq;
  });
  const sorted = keyed.map((k) => k.stored);
  return order === 'DESC' ? sorted.reverse() : sorted;
}

/** About this many UTF-16 units per chunk of a streamed answer. */
const STREAM_CHUNK = 1 << 16;
const encoder = new TextEncoder();

/** Text pieces as a byte stream, a chunk at a time as the reader asks for it. */
export function textStream(pieces: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = '';
      while (chunk.length < STREAM_CHUNK) {
        const next = await iterator.next();
        if (next.done === true) {
          if (chunk !== '') controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** The reconciliation CSV (header and lines) of records read a page at a time. */
export async function* csvLines(
  pages: AsyncIterable<readonly StoredSettlementRecord[]>,
  options: ReturnType<typeof csvOptions>,
): AsyncGenerator<string> {
  yield RECONCILIATION_HEADER;
  for await (const records of pages) yield* reconciliationCsvLines(records, options);
}

/**
 * `{aggregation, records: […], result, buildNumber, timestamp, ndc}` as env.send writes it, the
 * records written between the envelope's rendered head and its end as their pages come.
 */
function streamedJson(
  env: Envelope,
  c: Context,
  aggregation: Record<string, unknown>,
  pages: AsyncIterable<readonly StoredSettlementRecord[]>,
): Response {
  const rendered = env.render(200, OK, { aggregation, records: [] }, newNdc());
  const start = `{"aggregation":${JSON.stringify(aggregation)},"records":[`;
  if (rendered === undefined || !rendered.head.startsWith(`${start}]`))
    throw new Error('unexpected envelope');
  // the envelope's own end: `],"result":…,"buildNumber":…,"timestamp":…,"ndc":…}`
  const end = env.sendRendered(c, { ...rendered, head: rendered.head.slice(start.length) });
  async function* json(): AsyncGenerator<string> {
    yield start;
    let first = true;
    for await (const records of pages) {
      for (const stored of records) {
        yield first ? JSON.stringify(recordJson(stored)) : `,${JSON.stringify(recordJson(stored))}`;
        first = false;
      }
    }
    yield await end.text();
  }
  return new Response(textStream(json()), { status: 200, headers: end.headers });
}

const orderOf = (request: ReportingRequest): 'ASC' | 'DESC' =>
  request.sortOrder?.toUpperCase() === 'DESC' ? 'DESC' : 'ASC';

const rangeDays = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The date range errors the catalogue's rules leave to the endpoint: its length. */
function rangeErrors(request: ReportingRequest): ParameterError[] {
  const from = request.date?.from;
  const to = request.date?.to;
  if (from === undefined || to === undefined || rangeDays(from, to) <= MAX_RANGE_DAYS) return [];
  return [
    {
      name: 'date.to',
      value: to,
      message: `must be at most ${MAX_RANGE_DAYS} days after date.from, both included`,
    },
  ];
}

/** Missing date.from/date.to reported by the kind's `required`: not errors on the detail paths. */
const isMissingDate = (e: ParameterError): boolean =>
  (e.name === 'date.from' || e.name === 'date.to') && e.value === null && e.message === 'is required';

/**
 * `c.var.request` on the detail paths: as `parse('reporting')`, with date.from/date.to optional
 * (the kind requires them for the list).
 */
function parseDetail(
  deps: Pick<RouteDeps, 'env' | 'maxBodyBytes'>,
): MiddlewareHandler<BodyEnv & RequestEnv<'reporting'>> {
  return async (c, next) => {
    const query = c.var.body;
    const parsed = parseRequest('reporting', query, { maxBytes: deps.maxBodyBytes });
    if (parsed.ok) {
      c.set('request', parsed.value);
      return next();
    }
    const errors = parsed.errors.filter((e) => !isMissingDate(e));
    if (errors.length > 0) return invalid(deps.env, c, parsed.status, errors);
    // Only dates were missing: validate again with the missing ones filled in (the other's
    // value, or any day), to get the typed request; the dates play no part here.
    const sent = new URLSearchParams(query);
    const fill = (['date.from', 'date.to'] as const)
      .filter((n) => !sent.get(n))
      .map((n) => {
        const other = sent.get(n === 'date.from' ? 'date.to' : 'date.from');
        return `${n}=${encodeURIComponent(other || '2000-01-01')}`;
      });
    const again = parseRequest('reporting', [query, ...fill].filter((p) => p !== '').join('&'));
    if (!again.ok) return invalid(deps.env, c, again.status, again.errors);
    c.set('request', again.value);
    return next();
  };
}

export function reportingRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, mw: GatewayMiddleware): void {
  const { env } = deps;

  app.get(
    BASE,
    mw.body,
    mw.credentials,
    mw.parse('reporting'),
    mw.channel,
    mw.throttle('reports.aggregations'),
    async (c) => {
      const { token, channel, request } = c.var;
      const errors = rangeErrors(request);
      if (errors.length > 0) return mw.invalid(c, 400, errors);
      const { date, currency } = request;
      const settlements = await deps.store.listSettlements({
        merchantId: token.merchantId,
        channelIds: [channel.id],
        from: date!.from!,
        to: date!.to!,
        ...(currency === undefined ? {} : { currency }),
      });
      return env.send(c, 200, OK, { aggregations: settlements.map(aggregationJson) });
    },
  );

  /**
   * The aggregation, if the token may see it: its merchant's, on a channel the token may use, of
   * this address's environment (live and test settlements never show on the other's address).
   */
  async function visible(token: AccessToken, id: string): Promise<Settlement | undefined> {
    if (!ID.test(id)) return undefined;
    const s = await deps.store.getSettlement(token.merchantId, id);
    if (s === undefined) return undefined;
    const channel = await mw.channels.getChannel(s.channelId);
    return channel !== undefined && mayUse(token, channel, deps.environment) ? s : undefined;
  }

  const notFound = (c: Context) =>
    env.send(c, 404, {
      code: ResultCodes.ENTITY_NOT_FOUND,
      description: 'No aggregation found for the requested id',
    });

  async function detail(
    c: Context,
    token: AccessToken,
    request: ReportingRequest,
    asCsv: boolean,
  ): Promise<Response> {
    const settlement = await visible(token, c.req.param('id') ?? '');
    if (settlement === undefined) return notFound(c);
    // the records stream a page at a time, in the requested order: memory does not grow with the settlement
    const pages = deps.store.settlementRecordPagesByTime(settlement.id, orderOf(request));
    if (asCsv) {
      // live aggregations are only answered on the live address: the file name says so, as the FTP file's does
      const suffix = deps.environment === 'live' ? '_LIVE' : '';
      const name = `reconciliation_${settlement.channelId}_${settlement.date.replaceAll('-', '')}_${settlement.currency}${suffix}.csv`;
      const options = csvOptions();
      return c.body(textStream(csvLines(pages, options)), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${name}"`,
        'Cache-Control': 'no-store',
      });
    }
    return streamedJson(env, c, aggregationJson(settlement), pages);
  }

  // The detail paths: no dispatching by the request's currency, every channel refusal a 403.
  const front = [
    mw.body,
    mw.credentials,
    parseDetail(deps),
    mw.readChannel,
    mw.throttle('reports.aggregation'),
  ] as const;
  app.get(`${BASE}/:id`, ...front, (c) =>
    detail(c, c.var.token, c.var.request, /\btext\/csv\b/i.test(c.req.header('accept') ?? '')),
  );
  app.get(`${BASE}/:id/file`, ...front, (c) => detail(c, c.var.token, c.var.request, true));
}
