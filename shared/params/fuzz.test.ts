/**
 * Property-based fuzzing of parseRequest (decode + validate): 10,000 generated inputs in total,
 * with fixed seeds so every run sees the same inputs. Whatever arrives, parseRequest must not throw,
 * must answer `{ok: true, value}` or `{ok: false, status: 400 | 413, errors}`, and must never echo
 * the card number or the security code in an error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAN } from '../../server/test-kit/fixtures/cards';
import { type ParsedRequest, parseRequest, type RequestKind } from './requests';

const CVV = '123';

/** Valid bodies, one or more per kind; the mutation property starts from these. */
const VALID: Record<'payment' | 'checkout' | 'query', readonly string[]> = {
  payment: [
    `amount=92.00&currency=EUR&paymentBrand=VISA&paymentType=DB&card.number=${PAN}&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=${CVV}`,
    `amount=92.00&currency=EUR&paymentBrand=VISA&paymentType=DB&card.number=${PAN}&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=${CVV}` +
      '&merchantTransactionId=order-0001&customer.givenName=Jane&customer.surname=Jones&customer.email=jane@example.com' +
      '&billing.street1=Main+Street+1&billing.city=Berlin&billing.postcode=10115&billing.country=DE' +
      '&cart.items[0].name=Item%200&cart.items[0].quantity=1&cart.items[0].price=1.00&cart.items[1].name=Item%201' +
      '&customParameters[SHOPPER_x]=1&threeDSecure.v2.visa.requestorId=req-1',
  ],
  checkout: [
    'amount=92.00&currency=EUR&paymentType=DB&merchantTransactionId=order-0001&customer.givenName=Jane' +
      '&customer.surname=Jones&customer.email=jane@example.com&shopperResultUrl=https%3A%2F%2Fshop.example.com%2Fresult' +
      '&cart.items[0].name=Item%200&cart.items[0].price=1.00&cart.items%5B1%5D.name=Item+1' +
      '&customParameters[SHOPPER_x]=1&overridePaymentType[VISA]=PA&registrations[0].id=8a82944a4cc25ebf014cc2c782423202',
  ],
  query: [
    'merchantTransactionId=order-0001&limit=100&paymentTypes=DB,PA&includeLinkedTransactions=true&entityId=8a8294174b7ecb28014b9699220015ca',
    'date.from=2024-01-01+00:00:00&date.to=2024-01-31%2023:59:59&paymentMethods=CC,DD&shortId=1234.5678.9012',
  ],
};
const KINDS = ['payment', 'checkout', 'query'] as const satisfies readonly RequestKind[];

// ---- The invariant ---------------------------------------------------------------------------

const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).length;

const isPlainObject = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * The PAN as a number of its own. A longer digit run that merely contains it (`42000000000000000`,
 * a 17-digit number failing the Luhn check) is another number, which errors.ts may echo like any
 * order number or reference, so only the PAN bounded by non-digits counts as a leak.
 */
const PAN_RUN = new RegExp(`(?<![0-9])${PAN}(?![0-9])`);

/** `card[cvv]` and `card.cvv` name the same parameter. */
const canonical = (name: string) => name.replace(/\[([^\]]*)\]/g, '.$1');

/** The values the body sends as card.cvv, decoded the way a form decoder would. */
function cvvValuesOf(body: string | Uint8Array): string[] {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const out: string[] = [];
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    try {
      const name = decodeURIComponent(pair.slice(0, eq).replaceAll('+', ' '));
      const value = decodeURIComponent(pair.slice(eq + 1).replaceAll('+', ' '));
      if (canonical(name) === 'card.cvv' && value !== '') out.push(value);
    } catch {
      // Undecodable pairs carry no value to protect: the decoder reports them with value null.
    }
  }
  return out;
}

/** Everything wrong with one answer of parseRequest; empty when it keeps every promise. */
function problems(result: ParsedRequest<RequestKind>, body: string | Uint8Array): string[] {
  const out: string[] = [];
  if (Object.getOwnPropertyNames(Object.prototype).length !== PROTO_KEYS)
    out.push('Object.prototype changed');
  if (typeof result !== 'object' || result === null) return [...out, 'not an object'];
  if (result.ok === true) {
    if (!isPlainObject(result.value)) out.push('value is not a plain object');
    return out;
  }
  if (result.ok !== false) return [...out, 'ok is neither true nor false'];
  if (result.status !== 400 && result.status !== 413) out.push(`status ${String(result.status)}`);
  if (!Array.isArray(result.errors) || result.errors.length === 0) return [...out, 'no errors'];
  const cvvs = cvvValuesOf(body);
  for (const e of result.errors) {
    const keys = Object.keys(e).sort().join();
    if (keys !== 'message,name,value') out.push(`error keys ${keys}`);
    if (typeof e.name !== 'string') out.push('error name is not a string');
    if (e.value !== null && typeof e.value !== 'string') out.push('error value is neither string nor null');
    if (typeof e.message !== 'string' || e.message === '') out.push('error message is empty');
    if (typeof e.value !== 'string') continue;
    if (PAN_RUN.test(e.value)) out.push(`PAN echoed in ${e.name}: ${e.value}`);
    const cvvEchoed = canonical(e.name) === 'card.cvv' && cvvs.some((cvv) => e.value?.includes(cvv));
    if (cvvEchoed) out.push(`CVV echoed in ${e.name}: ${e.value}`);
  }
  return out;
}

function parseSafely(
  kind: RequestKind,
  body: string | Uint8Array,
  maxBytes?: number,
): ParsedRequest<RequestKind> {
  try {
    return maxBytes === undefined ? parseRequest(kind, body) : parseRequest(kind, body, { maxBytes });
  } catch (error) {
    throw new Error(`parseRequest('${kind}') threw ${String(error)}`);
  }
}

/** Checks one input against one kind; returns whether it was accepted, for the statistics. */
function check(kind: RequestKind, body: string | Uint8Array, maxBytes?: number): boolean {
  const result = parseSafely(kind, body, maxBytes);
  const found = problems(result, body);
  if (found.length > 0) throw new Error(`${kind}: ${found.join('; ')}`);
  return result.ok;
}

// ---- Generators ------------------------------------------------------------------------------

/** Real parameter names of the three kinds, as clients spell them on the wire. */
const NAMES = [
  'amount',
  'currency',
  'paymentType',
  'paymentBrand',
  'merchantTransactionId',
  'descriptor',
  'shopperResultUrl',
  'createRegistration',
  'entityId',
  'testMode',
  'integrity',
  'card.number',
  'card.cvv',
  'card.holder',
  'card.expiryMonth',
  'card.expiryYear',
  'card%2Ecvv',
  'card[cvv]',
  'card%5Bcvv%5D',
  'card[number]',
  'customer.givenName',
  'customer.surname',
  'customer.email',
  'customer.browser.language',
  'billing.country',
  'billing.street1',
  'billing.houseNumber2',
  'shipping.customer.givenName',
  'cart.items[0].name',
  'cart.items[0].quantity',
  'cart.items[1].price',
  'cart.items[3].name',
  'cart.items%5B0%5D.name',
  'cart.items[01].name',
  'cart.items[999].name',
  'cart.items[1000].name',
  'cart.items[0]',
  'cart.payments[0].amount',
  'marketPlace.sellers[0].id',
  'customParameters[x]',
  'customParameters[SHOPPER_id]',
  'customParameters[__proto__]',
  'customParameters[a]',
  'merchant.data[k1]',
  'merchant.billing.city',
  'risk.parameters[abc]',
  'overridePaymentType[VISA]',
  'threeDSecure.schemeData[CB-USECASE]',
  'threeDSecure.schemeData[CB-ITEMSNB]',
  'threeDSecure.v2.visa.requestorId',
  'threeDSecure.eci',
  'threeDSecure.verificationId',
  'airline.passengers[0].legs[0].flightNumber',
  'airline.passengers[1].name',
  'registrations[0].id',
  'bankAccount.iban',
  'walletA.paymentToken',
  'walletA.source',
  'tokenAccount.number',
  'giftCard.number',
  'authentication.userId',
  'authentication.password',
  'date.from',
  'date.to',
  'limit',
  'paymentTypes',
  'paymentMethods',
  'shortId',
  'job.expression',
  // Junk that looks like names.
  '__proto__.x',
  'constructor.prototype.x',
  'card',
  'card.number.x',
  'card.cvv.x',
  'cart',
  'cart.items',
  'a..b',
  '.a',
  'a.',
  'a[',
  'a[]',
  '[0]',
  'a]',
  'amount%zz',
  '%C3%28',
  '',
];

const VALUES = [
  '92.00',
  '12.5',
  '100',
  '00.01',
  'EUR',
  'eur',
  'DB',
  'PA',
  'RV',
  'PA.CP',
  'VISA',
  'MASTER',
  'WALLETA',
  PAN,
  `${PAN}0`,
  '4111111111111111',
  CVV,
  '1234',
  '05',
  '13',
  '2034',
  'Jane+Jones',
  'Jane%20Jones',
  'jane@example.com',
  'jane%40example.com',
  'https%3A%2F%2Fshop.example.com%2Fresult',
  '2024-01-01+10:00:00',
  'DE',
  'true',
  '1',
  '01',
  'web',
  'CC,DD',
  '8a8294174b7ecb28014b9699220015ca',
  '',
  '%zz',
  '%',
  '%C3%28',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%00',
  'é',
  '😀',
  '\uD800',
  '__proto__',
  '[0]',
  'a=b',
  'x'.repeat(300),
];

/** Strings that also hit lone surrogates and the form's own delimiters. */
const FORMY = fc.constantFrom(
  'a',
  '=',
  '&',
  '.',
  '[',
  ']',
  '%',
  '5',
  'B',
  'D',
  '+',
  ' ',
  '\uD800',
  '\uDC00',
  'é',
);
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  fc.string({ unit: FORMY, maxLength: 200 }),
);

const junkName = fc
  .array(
    fc.constantFrom(
      'a',
      'card',
      'items',
      'cart',
      '[',
      ']',
      '.',
      '0',
      '1',
      '%5B',
      '%5D',
      '__proto__',
      '%',
      'x',
    ),
    {
      maxLength: 8,
    },
  )
  .map((parts) => parts.join(''));
const name = fc.oneof(
  { arbitrary: fc.constantFrom(...NAMES), weight: 8 },
  { arbitrary: junkName, weight: 2 },
);
const value = fc.oneof(
  { arbitrary: fc.constantFrom(...VALUES), weight: 8 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }), weight: 1 },
);
const pair = fc
  .tuple(name, value, fc.constantFrom('=', '=', '=', ''))
  .map(([n, v, eq]) => (eq === '' ? n : `${n}=${v}`));
const vocabularyBody = fc.array(pair, { maxLength: 25 }).map((pairs) => pairs.join('&'));

/** What the mutation property may insert or put in place of a character. */
const CHARS = fc.oneof(
  fc.constantFrom(
    '%',
    '[',
    ']',
    '.',
    '=',
    '&',
    '+',
    ' ',
    '0',
    '5',
    'x',
    '%25',
    '%zz',
    '%C3%28',
    '%5B',
    '%5D',
    '%2E',
  ),
  fc.constantFrom('é', '€', '😀', '\u{10FFFF}', '\uD800', '\u0000'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 2 }),
);

type Mutation =
  | { readonly op: 'drop' | 'duplicate'; readonly i: number }
  | { readonly op: 'swap'; readonly i: number; readonly j: number }
  | { readonly op: 'value'; readonly i: number; readonly v: string }
  | { readonly op: 'change' | 'insert'; readonly at: number; readonly c: string }
  | { readonly op: 'truncate'; readonly at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constantFrom('drop' as const, 'duplicate' as const), i: fc.nat() }),
  fc.record({ op: fc.constant('swap' as const), i: fc.nat(), j: fc.nat() }),
  fc.record({ op: fc.constant('value' as const), i: fc.nat(), v: value }),
  fc.record({ op: fc.constantFrom('change' as const, 'insert' as const), at: fc.nat(), c: CHARS }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
);

function mutate(body: string, m: Mutation): string {
  const pairs = body.split('&');
  const n = pairs.length;
  switch (m.op) {
    case 'drop':
      pairs.splice(m.i % n, 1);
      return pairs.join('&');
    case 'duplicate':
      pairs.splice(m.i % n, 0, pairs[m.i % n]!);
      return pairs.join('&');
    case 'swap': {
      const a = pairs[m.i % n]!;
      pairs[m.i % n] = pairs[m.j % n]!;
      pairs[m.j % n] = a;
      return pairs.join('&');
    }
    case 'value': {
      const p = pairs[m.i % n]!;
      const eq = p.indexOf('=');
      pairs[m.i % n] = `${eq === -1 ? p : p.slice(0, eq)}=${m.v}`;
      return pairs.join('&');
    }
    case 'change': {
      const at = m.at % Math.max(body.length, 1);
      return body.slice(0, at) + m.c + body.slice(at + 1);
    }
    case 'insert': {
      const at = m.at % (body.length + 1);
      return body.slice(0, at) + m.c + body.slice(at);
    }
    case 'truncate':
      return body.slice(0, m.at % (body.length + 1));
  }
}

const validBody = fc
  .constantFrom(...KINDS)
  .chain((kind) => fc.constantFrom(...VALID[kind]).map((body) => ({ kind, body })));
const mutatedBody = fc
  .tuple(validBody, fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([{ kind, body }, mutations, asBytes]) => {
    const text = mutations.reduce(mutate, body);
    return { kind, body: asBytes ? new TextEncoder().encode(text) : text };
  });

// ---- Properties ------------------------------------------------------------------------------

describe('parseRequest fuzz (payment, checkout, query)', () => {
  it('accepts the valid bodies the mutations start from', () => {
    for (const kind of KINDS) {
      for (const body of VALID[kind])
        expect(parseRequest(kind, body), `${kind}: ${body}`).toMatchObject({ ok: true });
    }
  });

  it('keeps its promises for arbitrary strings (1,000 runs × 3 kinds)', () => {
    fc.assert(
      fc.property(anyString, (body) => {
        for (const kind of KINDS) check(kind, body);
      }),
      { seed: 0x0f0f_0001, numRuns: 1_000 },
    );
  });

  it('keeps its promises for arbitrary bytes (1,000 runs × 3 kinds)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (body) => {
        for (const kind of KINDS) check(kind, body);
      }),
      { seed: 0x0f0f_0002, numRuns: 1_000 },
    );
  });

  it('keeps its promises for bodies of real and junk parameter names (3,000 runs × 3 kinds)', () => {
    let tooLarge = 0;
    fc.assert(
      fc.property(
        vocabularyBody,
        fc.option(fc.integer({ min: 0, max: 400 }), { freq: 10 }),
        (body, maxBytes) => {
          for (const kind of KINDS) {
            const result = parseSafely(kind, body, maxBytes ?? undefined);
            const found = problems(result, body);
            if (found.length > 0) throw new Error(`${kind}: ${found.join('; ')}`);
            if (!result.ok && result.status === 413) tooLarge++;
          }
        },
      ),
      { seed: 0x0f0f_0003, numRuns: 3_000 },
    );
    // The size limit path is exercised, not only the 400 one.
    expect(tooLarge).toBeGreaterThan(0);
  });

  it('keeps its promises for mutated valid bodies (5,000 runs)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(mutatedBody, ({ kind, body }) => {
        if (check(kind, body)) accepted++;
      }),
      { seed: 0x0f0f_0004, numRuns: 5_000 },
    );
    // Some mutations keep a body valid (a duplicate, a reorder): the accepting path is exercised too.
    expect(accepted).toBeGreaterThan(250);
  });
});

// ---- Findings --------------------------------------------------------------------------------

const BASE = VALID.payment[0]!;
const errorsOf = (result: ParsedRequest<RequestKind>) => (result.ok ? [] : result.errors);

describe('findings of the fuzz, kept as regressions', () => {
  it('does not throw on a parameter name nested 20,000 levels deep', () => {
    const body = `${BASE}&a${'.a'.repeat(20_000)}=1`;
    expect(() => parseRequest('payment', body)).not.toThrow();
  });

  it('masks the security code sent as card[cvv] next to card.cvv', () => {
    // The same value under both spellings counts once; a different one is an error, masked.
    expect(parseRequest('payment', `${BASE}&card[cvv]=${CVV}`).ok).toBe(true);
    const errors = errorsOf(parseRequest('payment', `${BASE}&card[cvv]=987`));
    expect(errors.map((e) => e.name)).toEqual(['card[cvv]']);
    for (const e of errors) expect(e.value).toBe('***');
  });

  it.each(['checkout', 'query'] as const)('masks card.cvv sent to %s', (kind) => {
    const body = `${VALID[kind][0]}&card.cvv=${CVV}`;
    const errors = errorsOf(parseRequest(kind, body));
    expect(errors.map((e) => e.name)).toContain('card.cvv');
    for (const e of errors) expect(e.value ?? '').not.toContain(CVV);
  });

  it.each(['4200000000000000 123', '4200000000000000-05-34', '1 4200000000000000'])(
    'masks a PAN next to other digits in an unknown parameter: %s',
    (v) => {
      const body = BASE.replace(`card.number=${PAN}`, `card.numbr=${encodeURIComponent(v)}`);
      const errors = errorsOf(parseRequest('payment', body));
      expect(errors.map((e) => e.name)).toContain('card.numbr');
      for (const e of errors) expect(e.value ?? '').not.toMatch(PAN_RUN);
    },
  );

  it('keeps or refuses customParameters[__proto__], never drops it silently', () => {
    const result = parseRequest('payment', `${BASE}&customParameters[__proto__]=x`);
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('x');
    if (result.ok) {
      const params = result.value.customParameters ?? {};
      expect(Object.getOwnPropertyDescriptor(params, '__proto__')?.value).toBe('x');
    }
  });
});
