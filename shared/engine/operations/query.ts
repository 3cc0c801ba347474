/**
 * The Query API: a merchant looks its transactions up. `GET /v1/query/{id}` reads one (answered
 * like `GET /v1/payments/{id}`); `GET /v1/query` searches by merchantTransactionId or by a
 * date.from/date.to time frame. Both run validate → load → answer, within the caller's scope
 * (the token's channels, or all of the merchant's when it has none).
 *
 * - Order: oldest first, by creation time, then id (stable). A time frame is read forward: the
 *   next page starts at the last answer's timestamp.
 * - `limit` (100 to 500, default 100) caps the whole answer.
 * - paymentTypes and paymentMethods filter the answer. A payment's method follows from its brand
 *   (`paymentMethodOf`).
 * - includeLinkedTransactions=true adds, to each match, the transactions linked to it through
 *   `referencedId` in either direction and transitively (a PA brings its CP, the CP its RF),
 *   whatever their merchantTransactionId or time; the filters then apply to the whole answer.
 * - No match is a successful request with an empty list (the HTTP layer answers 000.000.100).
 * - With includeLinkedTransactions the search reads the searched transactions page by page until
 *   the answer is full; it reads at most SEARCH_SCAN_LIMIT of them. A search that needs more (a
 *   filter matching almost nothing over a busy time frame) is refused as too broad: the spec
 *   allows no partial answer (the list is every match, oldest first, up to `limit`), and an
 *   unbounded read is work any merchant token could ask for. The family's code for it is
 *   200.300.407 "Entity not specific enough" (the HTTP layer's 400), naming what to narrow.
 * - Registrations are transactions of type RG (the spec lists RG among paymentTypes): found by
 *   the merchantTransactionId their request carried, in a time frame and by id, filtered by
 *   paymentTypes and paymentMethods like a payment, never by a shortId (a payment's). An opp
 *   connector whose upstream is this gateway asks so about an uncertain registration
 *   (server/connectors/opp/inquire.ts): without them it would find nothing and end it as never
 *   made although it was. They link to nothing (a payment with one references no transaction).
 */
import { brandMethod, brandsOfMethods } from '../../brands';
import { maskValue, type ParameterError } from '../../params/errors';
import { parseTs } from '../../params/formats';
import type { RequestOf } from '../../params/requests';
import { type Invalid, invalid, NOT_FOUND, type NotFound } from '../core/failure';
import type { Payment, Registration } from '../core/model';
import type { PaymentQuery, Store } from '../core/ports';

export const DEFAULT_QUERY_LIMIT = 100;

/** Who asks: a merchant, through a token that may be restricted to some of its channels. */
export interface QueryScope {
  readonly merchantId: string;
  /** The token's channels; all of the merchant's when empty. */
  readonly channelIds: readonly string[];
}

export interface QueryDeps {
  readonly store: Store;
}

export type QueryRequest = RequestOf<'query'>;

/** The paymentType a registration is listed with. */
export const REGISTRATION_TYPE = 'RG';

/** A transaction of the answer: a payment, or a registration (type RG). */
export type QueryTransaction =
  | { readonly kind: 'payment'; readonly payment: Payment }
  | { readonly kind: 'registration'; readonly registration: Registration };

export type QueryOutcome =
  | Invalid
  | NotFound
  /** One transaction, answered as the payment (or the registration) itself. */
  | QueryTransaction
  /** A list, oldest first, answered as `payments: [...]`. */
  | { readonly kind: 'list'; readonly transactions: readonly QueryTransaction[] }
  /** More than SEARCH_SCAN_LIMIT transactions to read: the parameters to narrow. */
  | { readonly kind: 'too-broad'; readonly errors: ParameterError[] };

/**
 * The searched transactions one request reads at most when their linked ones are added (ten
 * pages of the largest limit): what a search costs is bounded whatever the time frame holds.
 */
export const SEARCH_SCAN_LIMIT = 5000;

// ---- Payment methods ---------------------------------------------------------------------------

/**
 * The payment method code of a payment's brand (the spec's paymentMethods values), from the
 * payment-method catalogue (shared/brands/catalogue.ts); undefined for unknown brands (they match
 * no method filter).
 */
export const paymentMethodOf = (brand: string | undefined): string | undefined => brandMethod(brand);

/** Every known brand whose method is one of `methods`. */
export { brandsOfMethods };

// ---- Validate ----------------------------------------------------------------------------------

interface Filters {
  readonly types?: ReadonlySet<string>;
  readonly methods?: ReadonlySet<string>;
  readonly linked: boolean;
  readonly limit: number;
}

const commaList = (value: string | undefined): ReadonlySet<string> | undefined =>
  value === undefined ? undefined : new Set(value.split(',').map((item) => item.trim()));

function filtersOf(request: QueryRequest): Filters {
  const types = commaList(request.paymentTypes);
  const methods = commaList(request.paymentMethods);
  return {
    ...(types === undefined ? {} : { types }),
    ...(methods === undefined ? {} : { methods }),
    linked: request.includeLinkedTransactions === 'true',
    limit: request.limit === undefined ? DEFAULT_QUERY_LIMIT : Number(request.limit),
  };
}

const matches = (p: Pick<Payment, 'paymentType' | 'paymentBrand'>, f: Filters): boolean =>
  (f.types === undefined || f.types.has(p.paymentType)) &&
  (f.methods === undefined || f.methods.has(paymentMethodOf(p.paymentBrand) ?? ''));

const registrationMatches = (r: Registration, f: Filters): boolean =>
  matches({ paymentType: REGISTRATION_TYPE, paymentBrand: r.paymentBrand }, f);

/** paymentTypes names nothing but RG: no payment can match. */
const onlyRegistrations = (f: Filters): boolean =>
  f.types !== undefined && [...f.types].every((t) => t === REGISTRATION_TYPE);

/** The parameters that search; with a transaction id in the path there is nothing to search. */
const SEARCH_ONLY = ['merchantTransactionId', 'date.from', 'date.to', 'shortId'] as const;

function searchValue(request: QueryRequest, name: (typeof SEARCH_ONLY)[number]): string | undefined {
  switch (name) {
    case 'merchantTransactionId':
      return request.merchantTransactionId;
    case 'date.from':
      return request.date?.from;
    case 'date.to':
      return request.date?.to;
    case 'shortId':
      return request.shortId;
  }
}

// ---- Load --------------------------------------------------------------------------------------

const inScope = (scope: QueryScope, p: Pick<Payment, 'merchantId' | 'channelId'>): boolean =>
  p.merchantId === scope.merchantId &&
  (scope.channelIds.length === 0 || scope.channelIds.includes(p.channelId));

/** Reference chains are short (PA → CP → RF → CB → CR); this bounds a pathological graph. */
const MAX_LINK_ROUNDS = 16;
/** Ids per listLinked call, far below both databases' parameter limits. */
const LINK_BATCH = 500;

/**
 * The seeds and every transaction linked to them, transitively, in both directions, within the
 * scope (the workflow keeps references on one channel; anything else is not the caller's).
 */
async function withLinked(store: Store, scope: QueryScope, seeds: readonly Payment[]): Promise<Payment[]> {
  const found = new Map(seeds.map((p) => [p.id, p]));
  let frontier = seeds.map((p) => p.id);
  for (let round = 0; round < MAX_LINK_ROUNDS && frontier.length > 0; round++) {
    const next: string[] = [];
    for (let i = 0; i < frontier.length; i += LINK_BATCH) {
      for (const p of await store.listLinked(scope.merchantId, frontier.slice(i, i + LINK_BATCH))) {
        if (found.has(p.id) || !inScope(scope, p)) continue;
        found.set(p.id, p);
        next.push(p.id);
      }
    }
    frontier = next;
  }
  return [...found.values()];
}

const byCreation = (a: Pick<Payment, 'createdAt' | 'id'>, b: Pick<Payment, 'createdAt' | 'id'>): number =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const asPayment = (payment: Payment): QueryTransaction => ({ kind: 'payment', payment });
const asRegistration = (registration: Registration): QueryTransaction => ({
  kind: 'registration',
  registration,
});
const createdOf = (t: QueryTransaction) => (t.kind === 'payment' ? t.payment : t.registration);

/** Payments and registrations in one answer: oldest first (creation time, then id), at most `limit`. */
function merged(
  payments: readonly Payment[],
  registrations: readonly Registration[],
  limit: number,
): QueryTransaction[] {
  return [...payments.map(asPayment), ...registrations.map(asRegistration)]
    .sort((a, b) => byCreation(createdOf(a), createdOf(b)))
    .slice(0, limit);
}

/**
 * The registrations a search finds (none when a shortId, a payment's, is searched, or paymentTypes
 * leaves RG out): the store applies the anchors, the scope, the method filter and the limit.
 */
function searchRegistrations(
  store: Store,
  request: QueryRequest,
  f: Filters,
  base: Omit<PaymentQuery, 'limit'>,
): Promise<Registration[]> {
  if (request.shortId !== undefined || (f.types !== undefined && !f.types.has(REGISTRATION_TYPE)))
    return Promise.resolve([]);
  const { shortId: _shortId, ...anchors } = base;
  return store.queryRegistrations({
    ...anchors,
    ...(f.methods === undefined ? {} : { paymentBrands: brandsOfMethods(f.methods) }),
    limit: f.limit,
  });
}

/** The answer: filtered, oldest first, at most `limit`. */
const answerList = (payments: readonly Payment[], f: Filters): Payment[] =>
  payments
    .filter((p) => matches(p, f))
    .sort(byCreation)
    .slice(0, f.limit);

// ---- The two requests --------------------------------------------------------------------------

/** GET /v1/query: the search. */
export async function searchPayments(
  deps: QueryDeps,
  scope: QueryScope,
  request: QueryRequest,
): Promise<QueryOutcome> {
  // Validate: the catalogue checked formats and what goes together; a search needs an anchor.
  const from = request.date?.from;
  const to = request.date?.to;
  if (request.merchantTransactionId === undefined && from === undefined) {
    return invalid([
      {
        name: 'merchantTransactionId',
        value: null,
        message: 'is required, or else date.from with date.to',
      },
    ]);
  }
  const f = filtersOf(request);
  const base: Omit<PaymentQuery, 'limit'> = {
    merchantId: scope.merchantId,
    ...(scope.channelIds.length === 0 ? {} : { channelIds: scope.channelIds }),
    ...(request.merchantTransactionId === undefined
      ? {}
      : { merchantTransactionId: request.merchantTransactionId }),
    // date.to names a whole second: everything created before the next one.
    ...(from === undefined || to === undefined
      ? {}
      : { from: parseTs(from), until: new Date(parseTs(to).getTime() + 1000) }),
    ...(request.shortId === undefined ? {} : { shortId: request.shortId }),
  };

  // Load. The registrations (type RG) are their own table's: each source's oldest `limit`, merged.
  const registrations = await searchRegistrations(deps.store, request, f, base);
  if (onlyRegistrations(f)) return { kind: 'list', transactions: merged([], registrations, f.limit) };
  // Without linked transactions the database applies every filter and the limit.
  if (!f.linked) {
    const payments = await deps.store.queryPayments({
      ...base,
      ...(f.types === undefined ? {} : { paymentTypes: [...f.types] }),
      ...(f.methods === undefined ? {} : { paymentBrands: brandsOfMethods(f.methods) }),
      limit: f.limit,
    });
    return { kind: 'list', transactions: merged(payments, registrations, f.limit) };
  }
  // With them, the filters apply to the answer (a refund found through its capture counts), so
  // the searched transactions are read page by page, oldest first, until the answer is full or
  // none are left, each page's index range starting at the previous page's last row.
  let answer: Payment[] = [];
  let after: PaymentQuery['after'];
  for (let read = 0; ; ) {
    // one row past the bound tells a frame holding more from one holding exactly that many
    const want = Math.min(f.limit, SEARCH_SCAN_LIMIT + 1 - read);
    const page = await deps.store.queryPayments({
      ...base,
      ...(after === undefined ? {} : { after }),
      limit: want,
    });
    read += page.length;
    const found = new Map(answer.map((p) => [p.id, p]));
    for (const p of await withLinked(deps.store, scope, page)) found.set(p.id, p);
    answer = answerList([...found.values()], { ...f, limit: Number.MAX_SAFE_INTEGER });
    const last = page.at(-1);
    if (answer.length >= f.limit || last === undefined || page.length < want) break;
    if (read > SEARCH_SCAN_LIMIT) return { kind: 'too-broad', errors: tooBroad(request) };
    after = { createdAt: last.createdAt, id: last.id };
  }
  return { kind: 'list', transactions: merged(answer.slice(0, f.limit), registrations, f.limit) };
}

/** What narrows a search that reads too much: its time frame, or its merchantTransactionId. */
function tooBroad(request: QueryRequest): ParameterError[] {
  const message = `matches more than ${SEARCH_SCAN_LIMIT} transactions to read with includeLinkedTransactions=true; narrow the search`;
  const from = request.date?.from;
  const to = request.date?.to;
  if (request.merchantTransactionId !== undefined) {
    return [{ name: 'merchantTransactionId', value: maskValue(request.merchantTransactionId), message }];
  }
  return [
    { name: 'date.from', value: from ?? null, message },
    { name: 'date.to', value: to ?? null, message },
  ];
}

/** GET /v1/query/{id}: one transaction, or with includeLinkedTransactions=true it and its linked ones. */
export async function queryPayment(
  deps: QueryDeps,
  scope: QueryScope,
  id: string,
  request: QueryRequest,
): Promise<QueryOutcome> {
  const errors: ParameterError[] = [];
  for (const name of SEARCH_ONLY) {
    const value = searchValue(request, name);
    if (value !== undefined) {
      errors.push({
        name,
        value: maskValue(value),
        message: 'searches (GET /v1/query); it is not accepted with a transaction id',
      });
    }
  }
  if (errors.length > 0) return invalid(errors);

  const f = filtersOf(request);
  const payment = await deps.store.getPayment(scope.merchantId, id);
  if (payment === undefined) return queryRegistration(deps, scope, id, f);
  if (!inScope(scope, payment)) return NOT_FOUND;
  if (!f.linked) return matches(payment, f) ? { kind: 'payment', payment } : NOT_FOUND;
  const linked = answerList(await withLinked(deps.store, scope, [payment]), f);
  return { kind: 'list', transactions: linked.map(asPayment) };
}

/** GET /v1/query/{id} of a registration: it alone (nothing links to it), as a list with includeLinkedTransactions. */
async function queryRegistration(
  deps: QueryDeps,
  scope: QueryScope,
  id: string,
  f: Filters,
): Promise<QueryOutcome> {
  const registration = await deps.store.getRegistration(scope.merchantId, id);
  if (registration === undefined || !inScope(scope, registration) || !registrationMatches(registration, f))
    return NOT_FOUND;
  return f.linked
    ? { kind: 'list', transactions: [asRegistration(registration)] }
    : { kind: 'registration', registration };
}
