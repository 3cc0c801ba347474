import { afterAll, describe, expect, it } from 'vitest';
import { encode, fullPayment } from '../../../bench/largest-request';
import { capErrors } from '../../../shared/params/error-list';
import { parseRequest, type RequestKind } from '../../../shared/params/requests';
import { createParsePool } from '.';

const pool = createParsePool({ threads: 1 });
afterAll(() => pool.close());

const MAX = 512 * 1024;

/** Custom parameters past what a name may be (3 to 64 characters): 400, the errors capped and counted. */
const badNames = (n: number) =>
  [`entityId=${'1'.repeat(32)}&amount=1.00&currency=EUR&paymentType=DB`]
    .concat(Array.from({ length: n }, (_, i) => `customParameters%5Bp-${i}%5D=4111111111111111`))
    .join('&');

/** name, kind, body, maxBytes, and the status the main thread answers (200: valid). */
const cases: [string, RequestKind, string, number, number][] = [
  [
    'the largest valid request (every group, 1,000 cart items)',
    'payment',
    encode(fullPayment(1000)),
    MAX,
    200,
  ],
  ['invalid names, their errors capped and counted', 'payment', badNames(5000), MAX, 400],
  [
    'invalid values: a card number, an amount, a brand',
    'payment',
    `${encode(fullPayment(10))}&card.number=12&amount=1,5&paymentBrand=NOPE`,
    MAX,
    400,
  ],
  ['a decode fault: past the byte limit', 'payment', badNames(2000), 10_000, 413],
  [
    'a decode fault: a broken escape and a list index too large',
    'checkout',
    `entityId=${'1'.repeat(32)}&a=%ZZ&cart.items[99999].name=x`,
    MAX,
    400,
  ],
];

describe('the parse pool', () => {
  it.each(cases)(
    'answers as the main thread does: %s',
    async (_, kind, body, maxBytes, status) => {
      const main = parseRequest(kind, body, { maxBytes });
      expect(main.ok ? 200 : main.status).toBe(status);
      const off = await pool.parse(kind, body, maxBytes);
      expect(off).toStrictEqual(main);
      // a structured clone keeps what JSON would not (an undefined, a missing key): the same text too
      expect(JSON.stringify(off)).toBe(JSON.stringify(main));
      // and a capped list still counts what it left out when capped or merged again (the envelope does)
      if (!main.ok && !off.ok) expect(capErrors(off.errors, 10)).toStrictEqual(capErrors(main.errors, 10));
    },
    60_000,
  );

  it('parses on another thread: the event loop keeps turning while a heavy body is parsed', async () => {
    const body = badNames(15_000);
    await pool.parse('payment', body, MAX); // the thread started
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const parsed = await Promise.all([1, 2, 3].map(() => pool.parse('payment', body, MAX)));
    clearInterval(timer);
    expect(parsed.every((p) => !p.ok)).toBe(true);
    // three parses of 16,000 parameters take tens of milliseconds: on the main thread, no tick between
    expect(ticks).toBeGreaterThan(3);
  }, 60_000);
});
