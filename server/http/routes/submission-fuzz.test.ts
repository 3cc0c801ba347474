/**
 * Fuzzing the checkout submission over HTTP, as anyone holding a checkout id can: 10,000 bodies
 * (fixed seeds) POSTed without credentials to /v1/checkouts/{id}/payment through the real app
 * (`startGateway`). Whatever arrives, the gateway answers in its JSON envelope, never with a 5xx,
 * lists at most 50 parameterErrors (plus the count of the rest), and never echoes the card number
 * or the security code in them. shared/params/fuzz.test.ts fuzzes parseRequest itself.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../test-kit/clock';
import { PAN } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { MAX_LISTED_PARAMETER_ERRORS } from '../middleware/body';

const CVV = '987';
const PAN_RUN = new RegExp(`(?<![0-9])${PAN}(?![0-9])`);

const VALID = [
  `card.number=${PAN}&card.holder=Jane+Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=${CVV}`,
  `paymentBrand=VISA&card.number=${PAN}&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=${CVV}` +
    '&customer.givenName=Jane&customer.surname=Jones&customer.email=jane%40example.com&customer.ip=192.0.2.1' +
    '&customer.browser.language=de-DE&customer.browser.screenHeight=1080&customer.browser.userAgent=Mozilla%2F5.0' +
    '&billing.street1=Main+Street+1&billing.city=Berlin&billing.postcode=10115&billing.country=DE' +
    '&customParameters[SHOPPER_note]=gift&createRegistration=true&shopperResultUrl=https%3A%2F%2Fshop.example%2Fr',
  'paymentBrand=DIRECTDEBIT_SEPA&bankAccount.holder=Jane+Jones&bankAccount.iban=DE89370400440532013000',
  'registrationId=8a82944a4cc25ebf014cc2c782423202&card.cvv=123',
];

const NAMES = [
  'card.number',
  'card.cvv',
  'card[cvv]',
  'card%5Bcvv%5D',
  'card.holder',
  'card.expiryMonth',
  'card.expiryYear',
  'paymentBrand',
  'paymentType',
  'amount',
  'entityId',
  'authentication.userId',
  'authentication.password',
  'authentication.entityId',
  'registrationId',
  'registrations[0].id',
  'createRegistration',
  'shopperResultUrl',
  'customer.email',
  'customer.browser.userAgent',
  'billing.country',
  'customParameters[SHOPPER_x]',
  'customParameters[x]',
  'customParameters[__proto__]',
  'overridePaymentType[VISA]',
  'bankAccount.iban',
  'walletA.paymentToken',
  'giftCard.number',
  'cart.items[0].name',
  '__proto__.x',
  'constructor.prototype.x',
  'card',
  'card.number.x',
  'a..b',
  '.a',
  'a[',
  'a[]',
  '[0]',
  '%C3%28',
  'x'.repeat(70),
  '',
];
const VALUES = [
  PAN,
  `${PAN}0`,
  '4444444444444444',
  CVV,
  '05',
  '13',
  '2034',
  'VISA',
  'MASTER',
  'WALLETA',
  'DB',
  'true',
  '1',
  'Jane+Jones',
  'jane%40example.com',
  'https%3A%2F%2Fshop.example%2Fr',
  '8a82944a4cc25ebf014cc2c782423202',
  '%zz',
  '%',
  '%C3%28',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%00',
  '=HYPERLINK(1)',
  'x'.repeat(300),
  '',
];

const name = fc.oneof(
  { arbitrary: fc.constantFrom(...NAMES), weight: 8 },
  {
    arbitrary: fc
      .array(fc.constantFrom('a', 'card', '[', ']', '.', '0', '%5B', '%', '__proto__'), { maxLength: 8 })
      .map((p) => p.join('')),
    weight: 2,
  },
);
const value = fc.oneof(
  { arbitrary: fc.constantFrom(...VALUES), weight: 8 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }), weight: 1 },
);
const pair = fc
  .tuple(name, value, fc.constantFrom('=', '=', '=', ''))
  .map(([n, v, eq]) => (eq === '' ? n : `${n}=${v}`));
const vocabularyBody = fc.array(pair, { maxLength: 30 }).map((pairs) => pairs.join('&'));

const CHARS = fc.constantFrom(
  '%',
  '[',
  ']',
  '.',
  '=',
  '&',
  '+',
  '0',
  'x',
  '%zz',
  '%C3%28',
  '%5B',
  'é',
  '\uD800',
  '\u0000',
);
const mutatedBody = fc
  .tuple(
    fc.constantFrom(...VALID),
    fc.array(
      fc.oneof(
        fc.record({ op: fc.constant('insert' as const), at: fc.nat(), c: CHARS }),
        fc.record({ op: fc.constant('change' as const), at: fc.nat(), c: CHARS }),
        fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
        fc.record({ op: fc.constant('add' as const), at: fc.nat(), p: pair }),
        fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([body, mutations]) =>
    mutations.reduce((text, m) => {
      const pairs = text.split('&');
      switch (m.op) {
        case 'insert':
          return text.slice(0, m.at % (text.length + 1)) + m.c + text.slice(m.at % (text.length + 1));
        case 'change': {
          const at = m.at % Math.max(text.length, 1);
          return text.slice(0, at) + m.c + text.slice(at + 1);
        }
        case 'drop':
          pairs.splice(m.at % pairs.length, 1);
          return pairs.join('&');
        case 'add':
          pairs.splice(m.at % (pairs.length + 1), 0, m.p);
          return pairs.join('&');
        default:
          return text.slice(0, m.at % (text.length + 1));
      }
    }, body),
  );

/** A body of many parameters: past the error cap, sometimes past the parameter or byte limit. */
const floodBody = fc
  .tuple(
    fc.integer({ min: 40, max: 1_500 }),
    fc.constantFrom('x', 'card.x', 'a[', 'customParameters[SHOPPER_', ''),
    fc.integer({ min: 0, max: 60 }),
  )
  .map(([n, prefix, width]) =>
    Array.from({ length: n }, (_, i) => `${prefix}${i}=${'v'.repeat(width)}`).join('&'),
  );

describe('POST /v1/checkouts/{id}/payment without credentials, fuzzed over HTTP', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  const clock = fakeClock();
  const ids: string[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;

  beforeAll(async () => {
    gw = await testGateway({ clock, notifier: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1, throttlePerMinute: 1_000_000 });
    for (let i = 0; i < 8; i++) {
      const res = await gw.post(
        '/v1/checkouts',
        { entityId: m.entityId, amount: '12.50', currency: 'EUR', paymentType: 'DB' },
        { token: m.token },
      );
      ids.push(res.body.id);
    }
  });
  afterAll(async () => {
    await gw.cleanup();
  });

  async function check(body: string | Uint8Array): Promise<void> {
    const id = ids[sent++ % ids.length]!;
    const res = await gw.app.request(`http://localhost/v1/checkouts/${id}/payment`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: body as BodyInit,
    });
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const text = await res.text();
    const where = `HTTP ${res.status} for ${typeof body === 'string' ? body.slice(0, 200) : `${body.length} bytes`}: ${text.slice(0, 300)}`;
    if (res.status >= 500) throw new Error(where);
    if (!res.headers.get('content-type')?.startsWith('application/json')) throw new Error(where);
    const json = JSON.parse(text) as {
      result?: { code?: string; parameterErrors?: { name: string; value: unknown }[] };
    };
    if (typeof json.result?.code !== 'string') throw new Error(where);
    const errors = json.result.parameterErrors ?? [];
    if (errors.length > MAX_LISTED_PARAMETER_ERRORS + 1)
      throw new Error(`${errors.length} errors listed: ${where}`);
    // The card number appears nowhere in an answer: not in an error, not as an echoed brand.
    if (PAN_RUN.test(text)) throw new Error(`PAN echoed: ${where}`);
    for (const e of errors) {
      // A security code never comes back, whatever the spelling of its name (`.card.cvv`, `CARD.CVV`).
      if (/cvv/i.test(e.name) && typeof e.value === 'string' && e.value.includes(CVV))
        throw new Error(`CVV echoed: ${where}`);
    }
  }

  it('answers 10,000 bodies with 0 × 5xx, every error list capped', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), check), {
      seed: 0x51_0001,
      numRuns: 1_500,
    });
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), (bytes) => check(bytes)),
      { seed: 0x51_0002, numRuns: 1_000 },
    );
    await fc.assert(fc.asyncProperty(vocabularyBody, check), { seed: 0x51_0003, numRuns: 3_000 });
    await fc.assert(fc.asyncProperty(mutatedBody, check), { seed: 0x51_0004, numRuns: 4_000 });
    await fc.assert(fc.asyncProperty(floodBody, check), { seed: 0x51_0005, numRuns: 500 });
    expect(sent).toBe(10_000);
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    // Every path is exercised: accepted, invalid or declined, too large.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(1_000);
    expect(statuses.get(413) ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
