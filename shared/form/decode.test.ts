import { describe, expect, it } from 'vitest';
import {
  BODY,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_PARAMS,
  type DecodeOptions,
  type DecodeResult,
  decodeForm,
  type FormIssue,
  type FormTree,
  MAX_SEGMENTS,
} from './decode';

/** List paths as the catalogue declares them, plus a short list `l` to reach its limit cheaply. */
const LIMITS = new Map<string, number>([
  ['cart.items', 1000],
  ['cart.payments', 100],
  ['marketPlace.sellers', 1000],
  ['airline.passengers', 999],
  ['airline.passengers.legs', 99],
  ['registrations', 100],
  ['l', 3],
]);
// A Map, not an object literal: `lists('__proto__')` must not find Object.prototype.
const lists: DecodeOptions['lists'] = (path) => LIMITS.get(path);

const decode = (input: string | Uint8Array, options: Partial<DecodeOptions> = {}): DecodeResult =>
  decodeForm(input, { lists, ...options });

const bytes = (...b: number[]) => new Uint8Array(b);
const utf8 = (s: string) => new TextEncoder().encode(s);

function treeOf(input: string | Uint8Array, options: Partial<DecodeOptions> = {}): FormTree {
  const result = decode(input, options);
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.issues)}`);
  return result.tree;
}

function issuesOf(input: string | Uint8Array, options: Partial<DecodeOptions> = {}) {
  const result = decode(input, options);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.tree)}`);
  return result;
}

describe('decodeForm: accepted bodies', () => {
  it.each<{ title: string; body: string | Uint8Array; tree: FormTree }>([
    // Dotted nesting.
    { title: 'a flat name', body: 'amount=92.00', tree: { amount: '92.00' } },
    {
      title: 'dotted names nest and share their groups',
      body: 'card.number=4200000000000000&card.holder=Jane&customer.browser.language=de',
      tree: {
        card: { number: '4200000000000000', holder: 'Jane' },
        customer: { browser: { language: 'de' } },
      },
    },
    {
      title: 'threeDSecure.v2.visa.requestorId nests four levels',
      body: 'threeDSecure.v2.visa.requestorId=req-1&threeDSecure.v2.visa.requestorName=Shop&threeDSecure.eci=05',
      tree: { threeDSecure: { eci: '05', v2: { visa: { requestorId: 'req-1', requestorName: 'Shop' } } } },
    },
    // [n] lists, counted from 0, items in any order.
    {
      title: 'a list from 0',
      body: 'cart.items[0].name=A&cart.items[0].price=1.00&cart.items[1].name=B',
      tree: { cart: { items: [{ name: 'A', price: '1.00' }, { name: 'B' }] } },
    },
    {
      title: 'list items in any order',
      body: 'cart.items[2].name=C&cart.items[0].name=A&cart.items[1].name=B&cart.items[0].price=1.00',
      tree: { cart: { items: [{ name: 'A', price: '1.00' }, { name: 'B' }, { name: 'C' }] } },
    },
    {
      title: 'lists within lists',
      body: 'airline.passengers[1].legs[0].flightNumber=LH2&airline.passengers[0].legs[1].flightNumber=LH1b&airline.passengers[0].legs[0].flightNumber=LH1a',
      tree: {
        airline: {
          passengers: [
            { legs: [{ flightNumber: 'LH1a' }, { flightNumber: 'LH1b' }] },
            { legs: [{ flightNumber: 'LH2' }] },
          ],
        },
      },
    },
    {
      title: 'the last index below the limit',
      body: 'l[2].x=c&l[1].x=b&l[0].x=a',
      tree: { l: [{ x: 'a' }, { x: 'b' }, { x: 'c' }] },
    },
    {
      title: 'a numeric key on a path that is not a list is a map key',
      body: 'customParameters[123]=x',
      tree: { customParameters: { '123': 'x' } },
    },
    // [key] maps.
    {
      title: 'customParameters[SHOPPER_x]',
      body: 'customParameters[SHOPPER_x]=1&customParameters[3DS2_flow]=challenge',
      tree: { customParameters: { SHOPPER_x: '1', '3DS2_flow': 'challenge' } },
    },
    {
      title: 'merchant.data[k] next to merchant fields',
      body: 'merchant.name=Shop&merchant.data[channel]=web&merchant.data[campaign.id]=c1',
      tree: { merchant: { name: 'Shop', data: { channel: 'web', 'campaign.id': 'c1' } } },
    },
    {
      title: 'risk.parameters[k]',
      body: 'risk.parameters[USER_DATA1]=gold&risk.channelId=web',
      tree: { risk: { parameters: { USER_DATA1: 'gold' }, channelId: 'web' } },
    },
    {
      title: 'overridePaymentType[VISA]',
      body: 'overridePaymentType[VISA]=PA&overridePaymentType[MASTER]=DB',
      tree: { overridePaymentType: { VISA: 'PA', MASTER: 'DB' } },
    },
    {
      title: 'a map key with a hyphen: threeDSecure.schemeData[CB-USECASE]',
      body: 'threeDSecure.schemeData[CB-USECASE]=01&threeDSecure.schemeData[CB-SCORE_MERCHANT]=high',
      tree: { threeDSecure: { schemeData: { 'CB-USECASE': '01', 'CB-SCORE_MERCHANT': 'high' } } },
    },
    // Percent-encoding, spaces, raw characters.
    {
      title: 'percent-encoded brackets in names (upper and lower case)',
      body: 'cart.items%5B0%5D.name=A&cart.items%5b1%5d.name=B',
      tree: { cart: { items: [{ name: 'A' }, { name: 'B' }] } },
    },
    {
      title: 'percent-encoded dots and letters in names',
      body: 'card%2Enumber=4200000000000000&%63ard.holder=Jane',
      tree: { card: { number: '4200000000000000', holder: 'Jane' } },
    },
    {
      title: 'a percent-encoded map key',
      body: 'customParameters%5BSHOPPER_x%5D=1',
      tree: { customParameters: { SHOPPER_x: '1' } },
    },
    {
      title: '+ and %20 are spaces',
      body: 'card.holder=Jane+Jones&billing.street1=Main%20Street+1',
      tree: { card: { holder: 'Jane Jones' }, billing: { street1: 'Main Street 1' } },
    },
    {
      title: '%2B is a plus, %26 an ampersand, %3D an equals sign',
      body: 'customer.phone=%2B49+30&descriptor=A%26B%3DC',
      tree: { customer: { phone: '+49 30' }, descriptor: 'A&B=C' },
    },
    {
      title: 'a raw @ and its encoding',
      body: 'customer.email=jane@example.com&billing.email=jane%40example.com',
      tree: { customer: { email: 'jane@example.com' }, billing: { email: 'jane@example.com' } },
    },
    {
      title: 'only the first = separates name and value',
      body: 'descriptor=a=b==c',
      tree: { descriptor: 'a=b==c' },
    },
    {
      title: 'percent-encoded UTF-8 in values',
      body: 'card.holder=J%C3%BCrgen+M%C3%BCller&x=%F0%9F%98%80',
      tree: { card: { holder: 'Jürgen Müller' }, x: '😀' },
    },
    {
      title: 'raw UTF-8 bytes',
      body: utf8('card.holder=Jürgen 😀'),
      tree: { card: { holder: 'Jürgen 😀' } },
    },
    // Repeats and empty values.
    { title: 'a repeated name with the same value, once', body: 'a=1&a=1', tree: { a: '1' } },
    {
      title: 'a repeat spelled differently that decodes the same',
      body: 'cart.items[0].name=A+B&cart.items%5B0%5D.name=A%20B',
      tree: { cart: { items: [{ name: 'A B' }] } },
    },
    { title: 'an empty value is absent', body: 'a=&b=2', tree: { b: '2' } },
    { title: 'a name without = is absent', body: 'a&b=2', tree: { b: '2' } },
    { title: 'an empty repeat does not conflict', body: 'a=1&a=', tree: { a: '1' } },
    { title: 'an empty value under a malformed name is absent', body: 'a..b=&b=2', tree: { b: '2' } },
    { title: 'an empty list item leaves no gap', body: 'l[0].x=1&l[1].x=', tree: { l: [{ x: '1' }] } },
    { title: 'empty pairs are skipped', body: '&&a=1&&', tree: { a: '1' } },
    { title: 'an empty body', body: '', tree: {} },
    { title: 'an empty byte body', body: bytes(), tree: {} },
  ])('$title', ({ body, tree }) => {
    expect(treeOf(body)).toEqual(tree);
  });

  it('counts name=value pairs, repeats and empty values included', () => {
    const result = decode('a=1&a=1&b=&c=3');
    expect(result).toMatchObject({ ok: true, count: 4 });
  });
});

interface Refusal {
  title: string;
  body: string | Uint8Array;
  issues: FormIssue[];
  /** Whether the decoder still offers what it could decode (it does unless a list has gaps). */
  partial?: FormTree | 'none';
  options?: Partial<DecodeOptions>;
}

describe('decodeForm: refused bodies', () => {
  const malformed = (name: string): FormIssue => ({
    name,
    value: '1',
    message: 'is not a well-formed parameter name',
  });

  it.each<Refusal>([
    // List gaps: no partial tree, as the remaining items could not be numbered.
    {
      title: 'a gap in a list names the missing index',
      body: 'cart.items[0].name=A&cart.items[2].name=C',
      issues: [
        {
          name: 'cart.items[1]',
          value: null,
          message: 'is missing: cart.items indices must count from 0 without gaps',
        },
      ],
      partial: 'none',
    },
    {
      title: 'a list not starting at 0',
      body: 'cart.items[1].name=B',
      issues: [
        {
          name: 'cart.items[0]',
          value: null,
          message: 'is missing: cart.items indices must count from 0 without gaps',
        },
      ],
      partial: 'none',
    },
    {
      title: 'a gap in a nested list names the item path',
      body: 'airline.passengers[0].legs[1].flightNumber=LH1',
      issues: [
        {
          name: 'airline.passengers[0].legs[0]',
          value: null,
          message: 'is missing: airline.passengers.legs indices must count from 0 without gaps',
        },
      ],
      partial: 'none',
    },
    // Bad indices.
    {
      title: 'a leading zero in an index',
      body: 'cart.items[01].name=A',
      issues: [
        {
          name: 'cart.items[01].name',
          value: 'A',
          message: 'must use a number from 0 as the index of cart.items',
        },
      ],
      partial: { cart: { items: [] } },
    },
    {
      title: 'a double zero index',
      body: 'l[00].x=1',
      issues: [{ name: 'l[00].x', value: '1', message: 'must use a number from 0 as the index of l' }],
    },
    {
      title: 'a negative index',
      body: 'l[-1].x=1',
      issues: [{ name: 'l[-1].x', value: '1', message: 'must use a number from 0 as the index of l' }],
    },
    {
      title: 'a word as index',
      body: 'l[x].x=1',
      issues: [{ name: 'l[x].x', value: '1', message: 'must use a number from 0 as the index of l' }],
    },
    {
      title: 'an index at the limit is named',
      body: 'l[0].x=a&l[1].x=b&l[2].x=c&l[3].x=d',
      issues: [
        {
          name: 'l[3]',
          value: null,
          message: 'is beyond the limit: at most 3 l are allowed (indices 0 to 2)',
        },
      ],
      partial: { l: [{ x: 'a' }, { x: 'b' }, { x: 'c' }] },
    },
    {
      title: 'cart.items[1000] is at the limit of 1000 items',
      body: 'cart.items[1000].name=X',
      issues: [
        {
          name: 'cart.items[1000]',
          value: null,
          message: 'is beyond the limit: at most 1000 cart.items are allowed (indices 0 to 999)',
        },
      ],
    },
    {
      title: 'a huge index is refused, never allocated',
      body: 'cart.items[9999999].name=X',
      issues: [
        {
          name: 'cart.items[9999999]',
          value: null,
          message: 'is beyond the limit: at most 1000 cart.items are allowed (indices 0 to 999)',
        },
      ],
    },
    {
      title: 'an index of more than seven digits',
      body: 'cart.items[12345678].name=X',
      issues: [
        {
          name: 'cart.items[12345678].name',
          value: 'X',
          message: 'must use a number from 0 as the index of cart.items',
        },
      ],
    },
    {
      title: 'a list item without a field',
      body: 'cart.items[0]=X',
      issues: [{ name: 'cart.items[0]', value: 'X', message: 'must name a field of the list item' }],
    },
    // Repeats with different values.
    {
      title: 'a repeated name with a different value',
      body: 'amount=1.00&amount=2.00',
      issues: [{ name: 'amount', value: '2.00', message: 'is repeated with a different value' }],
      partial: { amount: '1.00' },
    },
    {
      title: 'a repeat spelled differently with a different value',
      body: 'cart.items[0].name=A&cart.items%5B0%5D.name=B',
      issues: [{ name: 'cart.items[0].name', value: 'B', message: 'is repeated with a different value' }],
    },
    // Invalid UTF-8 and malformed escapes.
    {
      title: 'a raw 0xff byte',
      body: bytes(0x61, 0x3d, 0xff),
      issues: [{ name: BODY, value: null, message: 'is not valid UTF-8' }],
      partial: 'none',
    },
    {
      title: 'a raw overlong encoding',
      body: bytes(0x61, 0x3d, 0xc0, 0xaf),
      issues: [{ name: BODY, value: null, message: 'is not valid UTF-8' }],
    },
    {
      title: 'a raw encoded surrogate',
      body: bytes(0x61, 0x3d, 0xed, 0xa0, 0x80),
      issues: [{ name: BODY, value: null, message: 'is not valid UTF-8' }],
    },
    {
      title: 'a raw truncated sequence',
      body: bytes(0x61, 0x3d, 0xe2, 0x82),
      issues: [{ name: BODY, value: null, message: 'is not valid UTF-8' }],
    },
    {
      title: 'percent-encoded invalid UTF-8 %C3%28',
      body: 'card.holder=%C3%28',
      issues: [{ name: 'card.holder', value: null, message: 'is not valid percent-encoded UTF-8' }],
      partial: {},
    },
    {
      title: 'a percent-encoded surrogate %ED%A0%80',
      body: 'card.holder=%ED%A0%80',
      issues: [{ name: 'card.holder', value: null, message: 'is not valid percent-encoded UTF-8' }],
    },
    {
      title: 'a percent-encoded lone %FF',
      body: 'a=%FF',
      issues: [{ name: 'a', value: null, message: 'is not valid percent-encoded UTF-8' }],
    },
    {
      title: 'a percent-encoded overlong %C0%AF',
      body: 'a=%C0%AF',
      issues: [{ name: 'a', value: null, message: 'is not valid percent-encoded UTF-8' }],
    },
    {
      title: 'a malformed escape %zz',
      body: 'a=%zz',
      issues: [{ name: 'a', value: null, message: 'is not valid percent-encoded UTF-8' }],
    },
    {
      title: 'a truncated escape',
      body: 'a=50%',
      issues: [{ name: 'a', value: null, message: 'is not valid percent-encoded UTF-8' }],
    },
    {
      title: 'a malformed escape in a name is reported raw',
      body: 'card.%zz=1',
      issues: [{ name: 'card.%zz', value: null, message: 'name is not valid percent-encoded UTF-8' }],
    },
    // Malformed names.
    ...['a..b', '.a', 'a.', 'a[', 'a[]', '[0]', 'a]', 'a[b]c', 'a[b[c]]', 'a[b]]', 'a-b', 'a b', 'grüße'].map(
      (name): Refusal => ({
        title: `the malformed name ${name}`,
        body: `${encodeURIComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']')}=1`,
        issues: [malformed(name)],
        partial: {},
      }),
    ),
    { title: 'an empty name', body: '=1', issues: [malformed('')] },
    { title: 'a + in a name is a space', body: 'card+number=1', issues: [malformed('card number')] },
    // Conflicts between a value and a group.
    {
      title: 'a value, then a group under the same name',
      body: 'card=1&card.number=2',
      issues: [{ name: 'card.number', value: '2', message: 'conflicts with the parameter card' }],
      partial: { card: '1' },
    },
    {
      title: 'a group, then a value under the same name',
      body: 'card.number=2&card=1',
      issues: [{ name: 'card', value: '1', message: 'conflicts with other parameters under the same name' }],
      partial: { card: { number: '2' } },
    },
    {
      title: 'a group, then a list under the same name',
      body: 'cart.items.name=A&cart.items[0].name=B',
      issues: [
        { name: 'cart.items[0].name', value: 'B', message: 'conflicts with the parameter cart.items' },
      ],
    },
    {
      title: 'a map value, then a group below it',
      body: 'customParameters[a]=1&customParameters[a].b=2',
      issues: [
        {
          name: 'customParameters[a].b',
          value: '2',
          message: 'conflicts with the parameter customParameters[a]',
        },
      ],
    },
    // Several faults are reported at once.
    {
      title: 'every fault at once',
      body: 'a..b=1&c=%zz&d=1&d=2&card=1&card.number=2',
      issues: [
        malformed('a..b'),
        { name: 'c', value: null, message: 'is not valid percent-encoded UTF-8' },
        { name: 'd', value: '2', message: 'is repeated with a different value' },
        { name: 'card.number', value: '2', message: 'conflicts with the parameter card' },
      ],
      partial: { d: '1', card: '1' },
    },
  ])('$title', ({ body, issues, partial, options }) => {
    const result = issuesOf(body, options);
    expect(result.status).toBe(400);
    expect(result.issues).toEqual(issues);
    if (partial === 'none') expect(result.partial).toBeUndefined();
    else if (partial !== undefined) expect(result.partial).toEqual(partial);
  });
});

describe('decodeForm: size limits (413)', () => {
  const tooLarge = (maxBytes: number) => [
    { name: BODY, value: null, message: `is larger than ${maxBytes} bytes` },
  ];

  it.each<{ title: string; body: string | Uint8Array; maxBytes: number; ok: boolean }>([
    { title: 'a string at the limit', body: 'a=123456', maxBytes: 8, ok: true },
    { title: 'a string one byte over', body: 'a=1234567', maxBytes: 8, ok: false },
    // 'é' is 2 bytes and '€' 3 bytes in UTF-8, '😀' 4 (one surrogate pair).
    { title: 'multi-byte characters at the limit', body: 'a=éé€', maxBytes: 9, ok: true },
    { title: 'multi-byte characters over the limit', body: 'a=éé€', maxBytes: 8, ok: false },
    { title: 'an emoji counts 4 bytes, at the limit', body: 'a=😀', maxBytes: 6, ok: true },
    { title: 'an emoji counts 4 bytes, over the limit', body: 'a=😀', maxBytes: 5, ok: false },
    { title: 'bytes at the limit', body: utf8('a=123456'), maxBytes: 8, ok: true },
    { title: 'bytes one over', body: utf8('a=1234567'), maxBytes: 8, ok: false },
    {
      title: 'invalid bytes over the limit are 413, not 400',
      body: bytes(0xff, 0xff, 0xff),
      maxBytes: 2,
      ok: false,
    },
  ])('$title', ({ body, maxBytes, ok }) => {
    const result = decode(body, { maxBytes });
    if (ok) expect(result.ok).toBe(true);
    else expect(result).toEqual({ ok: false, status: 413, issues: tooLarge(maxBytes) });
  });

  it('refuses a string over the default limit of 4 MiB', () => {
    const body = `a=${'x'.repeat(DEFAULT_MAX_BYTES - 1)}`;
    expect(decode(body)).toEqual({ ok: false, status: 413, issues: tooLarge(DEFAULT_MAX_BYTES) });
    expect(decode(body.slice(0, -1)).ok).toBe(true);
  });

  it('refuses bytes over the default limit of 4 MiB', () => {
    const body = new Uint8Array(DEFAULT_MAX_BYTES + 1).fill(0x61);
    expect(decode(body)).toEqual({ ok: false, status: 413, issues: tooLarge(DEFAULT_MAX_BYTES) });
  });

  it.each([
    { body: 'a=1&b=2&c=3', maxParams: 3, ok: true },
    { body: 'a=1&b=2&c=3&d=4', maxParams: 3, ok: false },
    { body: 'a=1&a=1&a=1&a=1', maxParams: 3, ok: false },
    { body: 'a=&b=&c=&d=', maxParams: 3, ok: false },
    { body: 'a=1&&&&b=2&c=3', maxParams: 3, ok: true },
  ])('maxParams $maxParams for $body', ({ body, maxParams, ok }) => {
    const result = decode(body, { maxParams });
    if (ok) expect(result.ok).toBe(true);
    else
      expect(result).toEqual({
        ok: false,
        status: 413,
        issues: [{ name: BODY, value: null, message: `has more than ${maxParams} parameters` }],
      });
  });

  it('refuses more than the default number of parameters', () => {
    const body = 'a=1&'.repeat(DEFAULT_MAX_PARAMS + 1);
    expect(decode(body)).toMatchObject({ ok: false, status: 413 });
    expect(decode('a=1&'.repeat(DEFAULT_MAX_PARAMS)).ok).toBe(true);
  });
});

describe('decodeForm: prototype pollution', () => {
  const protoNames = () => Object.getOwnPropertyNames(Object.prototype).sort();

  it.each([
    '__proto__.x=1',
    '__proto__[x]=1',
    'constructor.prototype.x=1',
    'constructor[prototype][x]=1',
    'customParameters[__proto__]=1',
    'customParameters[__proto__].x=1',
    'customParameters[constructor]=1',
    'cart.items[0].__proto__.x=1',
    'a.__proto__.x=1&a.__proto__.y=2',
    '__proto__=1',
    'hasOwnProperty=1&toString.x=1',
  ])('%s never touches Object.prototype', (body) => {
    const before = protoNames();
    const result = decode(body);
    expect(protoNames()).toEqual(before);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(typeof {}.hasOwnProperty).toBe('function');
    // Names with __proto__ are refused, naming the parameter; other names stay data.
    if (body.includes('__proto__')) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.issues.every((i) => i.message.includes('__proto__'))).toBe(true);
    } else {
      expect(result.ok).toBe(true);
      if (result.ok) expect([null, Object.prototype]).toContain(Object.getPrototypeOf(result.tree));
    }
  });
});

describe('decodeForm: robustness', () => {
  it('never throws on a deeply nested name', () => {
    const body = `a${'.a'.repeat(20_000)}=1`;
    expect(() => decode(body)).not.toThrow();
  });

  it.each([
    [MAX_SEGMENTS, true],
    [MAX_SEGMENTS + 1, false],
  ])('decodes a name of %i segments: %s', (segments, ok) => {
    const result = decode(`a${'.a'.repeat(segments - 1)}=1`);
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.issues[0]!.message).toMatch(/nested deeper than/);
  });
});
