/**
 * What one request may cost the gateway (security holes 9): the body limit of submissions sent
 * without credentials (the checkout id is public enough to be abused), the cap on listed
 * parameterErrors on every endpoint, and a legitimate maximal widget submission still accepted.
 * No timings are asserted: sizes and counts only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../test-kit/clock';
import { CARD_FIELDS } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { MAX_LISTED_PARAMETER_ERRORS, PUBLIC_SUBMISSION_MAX_BYTES } from '../middleware/body';

/** `n` unknown parameters `x<i>=<value>` joined by `&`. */
const unknownParams = (n: number, value: string): string =>
  Array.from({ length: n }, (_, i) => `x${i}=${value}`).join('&');

interface ParameterError {
  readonly name: string;
  readonly value: string | null;
  readonly message: string;
}

describe('request limits', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  const clock = fakeClock();

  beforeAll(async () => {
    gw = await testGateway({ clock, notifier: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1, throttlePerMinute: 100_000 });
  });
  afterAll(() => gw.cleanup());

  const checkout = async (): Promise<string> => {
    const res = await gw.post(
      '/v1/checkouts',
      { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB' },
      { token: m.token },
    );
    expect(res.status).toBe(200);
    return res.body.id;
  };

  it('answers a 3.5 MB submission without credentials with a small 413, before decoding it', async () => {
    const id = await checkout();
    const body = unknownParams(95_000, 'a'.repeat(30));
    expect(body.length).toBeGreaterThan(3_500_000);
    const res = await gw.post(`/v1/checkouts/${id}/payment`, body);
    expect(res.status).toBe(413);
    expect(res.body.result.code).toBe('200.300.404');
    expect(res.body.result.parameterErrors).toEqual([
      { name: '(body)', value: null, message: `is larger than ${PUBLIC_SUBMISSION_MAX_BYTES} bytes` },
    ]);
    expect(res.text.length).toBeLessThan(1_000);
    expect(res.body.buildNumber).toBeDefined();
    // The same for the registration path, and for a body streamed without Content-Length.
    expect((await gw.post(`/v1/checkouts/${id}/registration`, body)).status).toBe(413);
    const bytes = new TextEncoder().encode(body);
    const streamed = await gw.app.request(`http://localhost/v1/checkouts/${id}/payment`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.subarray(i, i + 65_536));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    // The checkout is untouched: it still pays.
    expect((await gw.post(`/v1/checkouts/${id}/payment`, CARD_FIELDS)).status).toBe(200);
  });

  it('lists at most 50 parameter errors on an authenticated endpoint, and counts the rest', async () => {
    const body = `entityId=${m.entityId}&amount=92.00&currency=EUR&paymentType=DB&${unknownParams(2_000, 'abcdefghijklmnopqrs')}`;
    expect(body.length).toBeGreaterThan(50_000);
    const res = await gw.post('/v1/checkouts', body, { token: m.token });
    expect(res.status).toBe(400);
    expect(res.body.result.code).toBe('200.300.404');
    const errors = res.body.result.parameterErrors as ParameterError[];
    expect(MAX_LISTED_PARAMETER_ERRORS).toBe(50);
    expect(errors).toHaveLength(51);
    expect(errors.slice(0, 50).map((e) => e.name)).toEqual(Array.from({ length: 50 }, (_, i) => `x${i}`));
    for (const e of errors.slice(0, 50)) expect(e.message).toBe('is not a known parameter');
    expect(errors[50]).toEqual({
      name: '(body)',
      value: null,
      message: 'has 1950 more parameter errors, not listed',
    });
    expect(res.text.length).toBeLessThan(8_000);
    // The same cap on /v1/payments.
    const payment = await gw.post(
      '/v1/payments',
      `entityId=${m.entityId}&amount=1.00&currency=EUR&paymentType=DB&paymentBrand=VISA&${new URLSearchParams(CARD_FIELDS)}&${unknownParams(2_000, 'v')}`,
      { token: m.token },
    );
    expect(payment.status).toBe(400);
    expect(payment.body.result.parameterErrors).toHaveLength(51);
    expect(payment.body.result.parameterErrors[50].message).toBe(
      'has 1950 more parameter errors, not listed',
    );
  });

  it('caps the errors of a submission without credentials too', async () => {
    const id = await checkout();
    const res = await gw.post(
      `/v1/checkouts/${id}/payment`,
      `${new URLSearchParams(CARD_FIELDS)}&${unknownParams(500, '1')}`,
    );
    expect(res.status).toBe(400);
    const errors = res.body.result.parameterErrors as ParameterError[];
    expect(errors).toHaveLength(51);
    expect(errors[50]).toEqual({
      name: '(body)',
      value: null,
      message: 'has 450 more parameter errors, not listed',
    });
    // Under the cap, nothing is added.
    const few = await gw.post(
      `/v1/checkouts/${id}/payment`,
      `${new URLSearchParams(CARD_FIELDS)}&${unknownParams(3, '1')}`,
    );
    expect(few.body.result.parameterErrors.map((e: ParameterError) => e.name)).toEqual(['x0', 'x1', 'x2']);
  });

  it('refuses a submission of more than 1,000 parameters without decoding them all', async () => {
    const id = await checkout();
    const res = await gw.post(
      `/v1/checkouts/${id}/payment`,
      `${new URLSearchParams(CARD_FIELDS)}&${unknownParams(1_000, '1')}`,
    );
    expect(res.status).toBe(413);
    expect(res.body.result.parameterErrors).toEqual([
      { name: '(body)', value: null, message: 'has more than 1000 parameters' },
    ]);
  });

  it('accepts the largest legitimate widget submission: every field the shopper and the page send, at full length', async () => {
    const id = await checkout();
    const accented = (n: number) => 'é'.repeat(n);
    const ascii = (n: number, unit = 'Mozilla/5.0 (X11; Linux x86_64) ') =>
      unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    const fields: Record<string, string> = {
      ...CARD_FIELDS,
      'card.holder': `J${accented(127)}`,
      paymentBrand: 'VISA',
      createRegistration: 'true',
      shopperResultUrl: `https://shop.example/return?${ascii(2000, 'a=b%20c&')}`.slice(0, 2048),
      'customer.merchantCustomerId': ascii(255, 'id-'),
      'customer.givenName': accented(50),
      'customer.middleName': accented(50),
      'customer.surname': accented(50),
      'customer.sex': 'F',
      'customer.birthDate': '1990-01-31',
      'customer.phone': '+49 (30) 1234-5678 90',
      'customer.mobile': '+49 (170) 123 4567 8',
      'customer.workPhone': '+49 (30) 1234-5678',
      'customer.email': `${'j'.repeat(100)}@example.com`,
      'customer.companyName': accented(60),
      'customer.identificationDocType': 'PASSPORT',
      'customer.identificationDocId': ascii(64, 'C01X00T47'),
      'customer.ip': '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
      'customer.merchantReference': ascii(255, 'ref/'),
      'customer.salutation': 'MS',
      'customer.language': 'DE',
      'customer.category': 'INDIVIDUAL',
      'customer.status': 'EXISTING',
      'customer.browserFingerprint.id': ascii(255, 'fp+/='),
      'customer.browserFingerprint.value': ascii(4096, 'aGVsbG8+/w=='),
      'customer.browser.acceptHeader': ascii(2048, 'text/html,application/xhtml+xml;q=0.9,'),
      'customer.browser.language': 'de-DE',
      'customer.browser.screenHeight': '2160',
      'customer.browser.screenWidth': '3840',
      'customer.browser.timezone': '-120',
      'customer.browser.userAgent': ascii(2048),
      'customer.browser.javaEnabled': 'false',
      'customer.browser.screenColorDepth': '24',
      'customer.browser.challengeWindow': '5',
      'customer.browser.deviceId': ascii(32, 'd'),
      'billing.street1': accented(100),
      'billing.street2': accented(100),
      'billing.houseNumber1': accented(100),
      'billing.houseNumber2': accented(100),
      'billing.city': accented(80),
      'billing.state': 'Berlin',
      'billing.postcode': '10115',
      'billing.country': 'DE',
    };
    // The shop page's own inputs (customParameters[SHOPPER_…]): ten of them, 255 characters each.
    for (let i = 0; i < 10; i++) fields[`customParameters[SHOPPER_field${i}]`] = accented(255);
    const body = new URLSearchParams(fields).toString();
    // Far beyond any real submission (under 8 KiB), and still well within the limit.
    expect(body.length).toBeGreaterThan(24_576);
    expect(body.length).toBeLessThan(PUBLIC_SUBMISSION_MAX_BYTES * 0.75);
    const res = await gw.post(`/v1/checkouts/${id}/payment`, body);
    expect(res.status, JSON.stringify(res.body.result)).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
  });

  it('keeps the general limit for authenticated requests: a 400 KB checkout creation is read and validated', async () => {
    // the general limit (512 KiB) is above the spec's largest valid request (~390 KiB)
    const body = `entityId=${m.entityId}&amount=92.00&currency=EUR&paymentType=DB&merchantTransactionId=${'x'.repeat(400_000)}`;
    const res = await gw.post('/v1/checkouts', body, { token: m.token });
    expect(res.status).toBe(400);
    expect(res.body.result.parameterErrors.map((e: ParameterError) => e.name)).toEqual([
      'merchantTransactionId',
    ]);
  });
});

describe('the simulator pages (no credentials) read small bodies only', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await testGateway({ notifier: { autoStart: false } });
  });
  afterAll(() => gw.cleanup());

  it('treats a body past the public limit as no body', async () => {
    const entityId = 'e'.repeat(32);
    const small = await gw.post('/simulators/wallets/token', { wallet: 'walletA', card: 'visa', entityId });
    expect(small.text).toContain('entityId names no channel');
    const large = await gw.post(
      '/simulators/wallets/token',
      `wallet=walletA&card=visa&entityId=${entityId}&${unknownParams(3_000, 'a'.repeat(20))}`,
    );
    expect(large.status).toBe(small.status);
    // Nothing of the body was taken: the first parameter it checks is missing.
    expect(large.text).toContain('wallet must be one of');
  });
});
