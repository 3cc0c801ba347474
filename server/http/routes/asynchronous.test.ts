/**
 * Asynchronous (redirect) payments at the HTTP level, on a fake clock: every redirect method of
 * the simulator through POST /v1/payments and its provider page (approve, decline, cancel,
 * timeout), the shopperResultUrl the shopper returns to, a restart on the same data, checkouts
 * paid with a redirect method (reopened after a failed attempt, a new submission cancelling a
 * pending one, racing an approval), the browser headers a 3-D Secure checkout takes from the
 * request. A last block runs two gateways on one PostgreSQL: their workers time out each
 * payment once, and a shopper's approval racing a timeout ends it once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIRECT_METHODS } from '../../processors/simulator/redirect-methods';
import { fakeClock } from '../../test-kit/clock';
import { CARD_FIELDS } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';
import { type PostgresCluster, startPostgres } from '../../test-kit/postgres';
import { tempFolder } from '../../test-kit/temp-folders';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const SHOP = 'https://shop.example/result?order=7';
const HEX32 = /^[0-9a-f]{32}$/;
const BRANDS = Object.keys(REDIRECT_METHODS);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves after `n` turns of the event loop. */
async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

function expectPending(res: TestResponse): void {
  expect(res.status).toBe(200);
  expect(res.body.result.code).toBe('000.200.000');
  expect(res.body.id).toMatch(HEX32);
}

/** The `session` parameter of a redirect method's pending answer (its only parameter). */
function sessionOf(res: TestResponse): string {
  expect(res.body.redirect.url).toBe('http://localhost/simulators/redirect');
  expect(res.body.redirect.parameters).toEqual([{ name: 'session', value: expect.stringMatching(HEX32) }]);
  return res.body.redirect.parameters[0].value;
}

const paymentReturn = (id: string, shop = SHOP) => `${shop}&id=${id}&resourcePath=%2Fv1%2Fpayments%2F${id}`;
const checkoutReturn = (id: string, shop = SHOP) =>
  `${shop}&id=${encodeURIComponent(id)}&resourcePath=%2Fv1%2Fcheckouts%2F${encodeURIComponent(id)}%2Fpayment`;

/** The helpers every block uses, on one gateway. */
function helpers(gw: () => TestGateway) {
  const pay = (who: TestMerchant, brand: string, extra: Record<string, string> = {}) =>
    gw().post(
      '/v1/payments',
      {
        entityId: who.entityId,
        amount: '25.50',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: brand,
        shopperResultUrl: SHOP,
        ...extra,
      },
      { token: who.token },
    );
  const status = (who: TestMerchant, id: string) =>
    gw().get(`/v1/payments/${id}`, { entityId: who.entityId }, { token: who.token });
  const act = (session: string, action: string, extra: Record<string, string> = {}) =>
    gw().post('/simulators/redirect/answer', { session, action, ...extra });
  return { pay, status, act };
}

describe('redirect methods over HTTP (SQLite, fake clock)', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  const clock = fakeClock();
  beforeAll(async () => {
    gw = await testGateway({ clock, pending: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw.cleanup());
  const { pay, status, act } = helpers(() => gw);

  describe.each(BRANDS)('%s', (brand) => {
    const method = REDIRECT_METHODS[brand]!;

    it('is pending with a redirect to the provider page, which is served for GET and POST', async () => {
      const res = await pay(m, brand);
      expectPending(res);
      expect(res.body.paymentBrand).toBe(brand);
      expect(res.body.amount).toBe('25.50');
      const session = sessionOf(res);
      for (const page of [
        await gw.get('/simulators/redirect', { session }),
        await gw.post('/simulators/redirect', { session }),
      ]) {
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(page.headers.get('content-security-policy')).toContain('frame-ancestors *');
        expect(page.text).toContain(method.title);
        expect(page.text).toContain(method.step);
        expect(page.text).toContain('25.50 EUR');
        expect(page.text).toContain('action="/simulators/redirect/answer"');
        expect(page.text).toContain(`name="session" value="${session}"`);
        for (const action of ['approve', 'decline', 'cancel'])
          expect(page.text).toContain(`value="${action}"`);
      }
      // Looking at the page decides nothing.
      expect((await status(m, res.body.id)).body.result.code).toBe('000.200.000');
      await act(session, 'cancel');
    });

    it.each([
      ['approve', '000.100.110', 200, 'APPROVED'],
      ['decline', method.declineCode, 400, 'DECLINED'],
      ['cancel', '100.396.101', 400, undefined],
    ])('%s → %s', async (action, code, http, acquirerResponse) => {
      const res = await pay(m, brand);
      const session = sessionOf(res);
      const back = await act(session, action);
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe(paymentReturn(res.body.id));
      const final = await status(m, res.body.id);
      expect(final.status).toBe(http);
      expect(final.body.result.code).toBe(code);
      expect(final.body.redirect).toBeUndefined();
      expect(final.body.paymentBrand).toBe(brand);
      expect(final.body.resultDetails?.AcquirerResponse).toBe(acquirerResponse);
      // Once ended, it stays so: another answer, and the page, send the shopper back.
      for (const again of ['approve', 'decline', 'cancel']) {
        const later = await act(session, again);
        expect(later.status).toBe(303);
        expect(later.headers.get('location')).toBe(paymentReturn(res.body.id));
      }
      expect((await gw.get('/simulators/redirect', { session })).status).toBe(303);
      expect((await status(m, res.body.id)).body.result.code).toBe(code);
    });

    it('times out after 30 minutes: 100.396.103', async () => {
      const res = await pay(m, brand);
      const session = sessionOf(res);
      clock.advance(29 * MINUTE + 59 * SECOND);
      expect(await gw.pending.runOnce()).toBe(0);
      expect((await status(m, res.body.id)).body.result.code).toBe('000.200.000');
      clock.advance(SECOND);
      expect(await gw.pending.runOnce()).toBe(1);
      const final = await status(m, res.body.id);
      expect(final.status).toBe(400);
      expect(final.body.result.code).toBe('100.396.103');
      expect(final.body.redirect).toBeUndefined();
      expect(await gw.pending.runOnce()).toBe(0);
      // A late approval changes nothing.
      expect((await act(session, 'approve')).status).toBe(303);
      expect((await status(m, res.body.id)).body.result.code).toBe('100.396.103');
    });
  });

  it('after 30 minutes an approval times out all the same, before the worker has come by', async () => {
    const res = await pay(m, 'PAYPAL');
    const session = sessionOf(res);
    clock.advance(30 * MINUTE);
    expect((await act(session, 'approve')).status).toBe(303);
    expect((await status(m, res.body.id)).body.result.code).toBe('100.396.103');
    expect(await gw.pending.runOnce()).toBe(0);
  });

  it('after 30 minutes the provider page no longer offers the payment: it times out', async () => {
    const res = await pay(m, 'SOFORTUEBERWEISUNG');
    const session = sessionOf(res);
    clock.advance(30 * MINUTE);
    const page = await gw.get('/simulators/redirect', { session });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(paymentReturn(res.body.id));
    expect((await status(m, res.body.id)).body.result.code).toBe('100.396.103');
  });

  it('a session whose payment was never written (a crash between the writes) is dropped at its expiry', async () => {
    const now = clock.now();
    await gw.store.insertPaymentSession({
      id: 'a'.repeat(32),
      paymentId: 'b'.repeat(32),
      merchantId: m.merchantId,
      kind: 'redirect',
      plan: { brand: 'PAYPAL', afterSuccess: {} },
      createdAt: now,
      expiresAt: new Date(now.getTime() + 30 * MINUTE),
      dueAt: new Date(now.getTime() + 30 * MINUTE),
      finishedAt: null,
    });
    clock.advance(30 * MINUTE);
    expect(await gw.pending.runOnce()).toBe(0);
    expect((await gw.store.getPaymentSession('a'.repeat(32)))?.outcome).toBe('timedOut');
    // No longer claimed, now or a lease later.
    clock.advance(2 * MINUTE);
    expect(await gw.store.claimDuePaymentSessions(clock.now(), clock.now(), 10)).toEqual([]);
  });

  it('returnMode=message: the page loads /simulators/return.js instead of redirecting', async () => {
    const res = await pay(m, 'PAYPAL');
    const session = sessionOf(res);
    const page = await gw.get('/simulators/redirect', { session, returnMode: 'message' });
    expect(page.text).toContain('name="returnMode" value="message"');
    const done = await act(session, 'approve', { returnMode: 'message' });
    expect(done.status).toBe(200);
    expect(done.headers.get('location')).toBeNull();
    expect(done.text).toContain('<script src="/simulators/return.js"></script>');
    expect((await status(m, res.body.id)).body.result.code).toBe('000.100.110');
  });

  it('an unknown action cancels', async () => {
    const res = await pay(m, 'PAYPAL');
    await act(sessionOf(res), 'whatever');
    expect((await status(m, res.body.id)).body.result.code).toBe('100.396.101');
  });

  it('a forced result code applies when the shopper approves', async () => {
    const res = await pay(m, 'KLARNA_PAYMENTS_PAYLATER', {
      'customParameters[forceResultCode]': '800.100.151',
    });
    expectPending(res);
    await act(sessionOf(res), 'approve');
    expect((await status(m, res.body.id)).body.result.code).toBe('800.100.151');
  });

  it('a shopperResultUrl with its own query string keeps it; resourcePath is percent-encoded', async () => {
    const shop = 'https://shop.example/back?order=8&note=a%20b&x=';
    const res = await pay(m, 'SOFORTUEBERWEISUNG', { shopperResultUrl: shop });
    const back = await act(sessionOf(res), 'approve');
    expect(back.headers.get('location')).toBe(paymentReturn(res.body.id, shop));
  });

  it.each([
    ['an unknown session', { session: '0'.repeat(32) }],
    ['a malformed session', { session: '../../etc' }],
    ['no session', {}],
  ])('answers 404 for %s', async (_, params) => {
    for (const res of [
      await gw.get('/simulators/redirect', params),
      await gw.post('/simulators/redirect', params),
      await gw.post('/simulators/redirect/answer', { ...params, action: 'approve' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.text).toContain('Unknown payment session');
    }
  });

  it('a redirect brand without shopperResultUrl is refused, naming it', async () => {
    for (const brand of BRANDS) {
      const res = await gw.post(
        '/v1/payments',
        { entityId: m.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB', paymentBrand: brand },
        { token: m.token },
      );
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual([
        'shopperResultUrl',
      ]);
    }
  });
});

describe('GATEWAY_PUBLIC_URL', () => {
  it('is the origin of every redirect.url', async () => {
    const gw = await testGateway({
      env: { GATEWAY_PUBLIC_URL: 'https://pay.example.com/' },
      pending: { autoStart: false },
    });
    try {
      const m = await gw.addMerchant({ channels: 1 });
      const res = await helpers(() => gw).pay(m, 'PAYPAL');
      expect(res.body.redirect.url).toBe('https://pay.example.com/simulators/redirect');
    } finally {
      await gw.cleanup();
    }
  });
});

describe('a pending payment across a restart', () => {
  it('keeps its status, its page and its timeout in the data folder', async () => {
    const dataDir = await tempFolder('gateway-async-restart-');
    const clock = fakeClock();
    let gw = await testGateway({ clock, dataDir, pending: { autoStart: false } });
    const { pay, status, act } = helpers(() => gw);
    try {
      const m = await gw.addMerchant({ channels: 1 });
      const approved = await pay(m, 'PAYPAL');
      const abandoned = await pay(m, 'SOFORTUEBERWEISUNG');
      await gw.close();

      gw = await testGateway({ clock, dataDir, pending: { autoStart: false } });
      expect((await status(m, approved.body.id)).body.result.code).toBe('000.200.000');
      expect((await gw.get('/simulators/redirect', { session: sessionOf(approved) })).status).toBe(200);
      expect((await act(sessionOf(approved), 'approve')).status).toBe(303);
      expect((await status(m, approved.body.id)).body.result.code).toBe('000.100.110');
      await gw.close();

      clock.advance(30 * MINUTE);
      gw = await testGateway({ clock, dataDir, pending: { autoStart: false } });
      expect((await status(m, approved.body.id)).body.result.code).toBe('000.100.110');
      expect(await gw.pending.runOnce()).toBe(1);
      expect((await status(m, abandoned.body.id)).body.result.code).toBe('100.396.103');
    } finally {
      await gw.cleanup();
    }
  });
});

describe('checkouts paid with a redirect method (SQLite, fake clock)', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let secure: TestMerchant;
  const clock = fakeClock();
  beforeAll(async () => {
    gw = await testGateway({ clock, pending: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
    secure = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true } });
  });
  afterAll(() => gw.cleanup());
  const { status: paymentStatus, act } = helpers(() => gw);

  const create = async (who = m, extra: Record<string, string> = {}): Promise<string> => {
    const res = await gw.post(
      '/v1/checkouts',
      { entityId: who.entityId, amount: '40.00', currency: 'EUR', paymentType: 'DB', ...extra },
      { token: who.token },
    );
    expect(res.status).toBe(200);
    return res.body.id;
  };
  const submit = (id: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
    gw.send('POST', `/v1/checkouts/${id}/payment`, new URLSearchParams(params).toString(), { headers });
  const paypal = (id: string) => submit(id, { paymentBrand: 'PAYPAL', shopperResultUrl: SHOP });
  const checkoutStatus = (id: string, who = m) =>
    gw.get(`/v1/checkouts/${id}/payment`, { entityId: who.entityId }, { token: who.token });
  const widgetSession = async (id: string) => (await gw.get(`/v1/checkouts/${id}/session`)).body;

  it('approved: 303 to the shopperResultUrl with the checkout id and resourcePath; the checkout is paid', async () => {
    const id = await create();
    const res = await paypal(id);
    expectPending(res);
    const session = sessionOf(res);
    expect((await widgetSession(id)).state).toBe('completed');
    expect((await checkoutStatus(id)).body.result.code).toBe('000.200.000');

    const back = await act(session, 'approve');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(checkoutReturn(id));
    const paid = await checkoutStatus(id);
    expect(paid.status).toBe(200);
    expect(paid.body.result.code).toBe('000.100.110');
    expect(paid.body.id).toBe(res.body.id);
    expect(paid.body.paymentBrand).toBe('PAYPAL');
    const state = await widgetSession(id);
    expect(state.state).toBe('completed');
    expect(state.lastResult.code).toBe('000.100.110');
    // Paid: nothing more can be submitted.
    const again = await submit(id, CARD_FIELDS);
    expect(again.status).toBe(400);
    expect(again.body.result.code).toBe('100.350.101');
    expect(await gw.paymentIds(m.merchantId)).toContain(res.body.id);
  });

  it.each([
    ['declined', 'decline', '800.100.170'],
    ['cancelled', 'cancel', '100.396.101'],
  ])(
    '%s: the checkout opens again, answers that attempt, and a card then pays it',
    async (_, action, code) => {
      const id = await create();
      const res = await paypal(id);
      const back = await act(sessionOf(res), action);
      expect(back.headers.get('location')).toBe(checkoutReturn(id));

      const state = await widgetSession(id);
      expect(state.state).toBe('open');
      expect(state.lastResult.code).toBe(code);
      const latest = await checkoutStatus(id);
      expect(latest.status).toBe(400);
      expect(latest.body.result.code).toBe(code);
      expect(latest.body.id).toBe(res.body.id);

      const card = await submit(id, CARD_FIELDS);
      expect(card.status).toBe(200);
      expect(card.body.result.code).toBe('000.100.110');
      const paid = await checkoutStatus(id);
      expect(paid.body.result.code).toBe('000.100.110');
      expect(paid.body.id).toBe(card.body.id);
      expect((await widgetSession(id)).state).toBe('completed');
    },
  );

  it('without any shopperResultUrl: the provider page ends with a message instead of a redirect', async () => {
    const id = await create();
    const res = await submit(id, { paymentBrand: 'WALLETD_CONTINUE' });
    expectPending(res);
    const done = await act(sessionOf(res), 'approve');
    expect(done.status).toBe(200);
    expect(done.headers.get('location')).toBeNull();
    expect(done.text).toContain('Payment processed');
    expect((await checkoutStatus(id)).body.result.code).toBe('000.100.110');
  });

  it('timed out: the checkout answers the timeout, and has expired with it', async () => {
    const id = await create();
    const res = await paypal(id);
    clock.advance(10 * MINUTE);
    const other = await paypal(await create()); // due later: not touched
    clock.advance(20 * MINUTE);
    expect(await gw.pending.runOnce()).toBe(1);
    expect((await paymentStatus(m, res.body.id)).body.result.code).toBe('100.396.103');
    expect((await paymentStatus(m, other.body.id)).body.result.code).toBe('000.200.000');
    const state = await widgetSession(id);
    // The checkout itself expired with the payment's 30 minutes: it cannot be paid any more.
    expect(state.lastResult.code).toBe('100.396.103');
    expect(state.state).toBe('expired');
    await act(sessionOf(other), 'cancel');
  });

  it('a new submission while one is pending cancels it and proceeds', async () => {
    const id = await create();
    const first = await paypal(id);
    const session = sessionOf(first);
    const card = await submit(id, CARD_FIELDS);
    expect(card.status).toBe(200);
    expect(card.body.result.code).toBe('000.100.110');
    const cancelled = await paymentStatus(m, first.body.id);
    expect(cancelled.body.result.code).toBe('100.396.101');
    expect(cancelled.body.redirect).toBeUndefined();
    expect((await checkoutStatus(id)).body.id).toBe(card.body.id);
    // The provider page of the cancelled attempt sends the shopper back, and approves nothing.
    expect((await act(session, 'approve')).status).toBe(303);
    expect((await paymentStatus(m, first.body.id)).body.result.code).toBe('100.396.101');
    expect((await checkoutStatus(id)).body.result.code).toBe('000.100.110');
  });

  it('another redirect brand while one is pending: the first is cancelled, the second pays', async () => {
    const id = await create();
    const first = await paypal(id);
    const second = await submit(id, { paymentBrand: 'SOFORTUEBERWEISUNG', shopperResultUrl: SHOP });
    expectPending(second);
    expect((await paymentStatus(m, first.body.id)).body.result.code).toBe('100.396.101');
    await act(sessionOf(second), 'approve');
    const paid = await checkoutStatus(id);
    expect(paid.body.result.code).toBe('000.100.110');
    expect(paid.body.id).toBe(second.body.id);
  });

  it('an approval racing a new submission never pays twice', async () => {
    const outcomes = new Set<string>();
    // Each one starts `lag` turns of the event loop after the other (the approval after the
    // submission when positive): every interleaving of the two.
    for (let lag = -8; lag <= 8; lag++) {
      const id = await create();
      const first = await paypal(id);
      const session = sessionOf(first);
      const [, card] = await Promise.all([
        ticks(Math.max(lag, 0)).then(() => act(session, 'approve')),
        ticks(Math.max(-lag, 0)).then(() => submit(id, CARD_FIELDS)),
      ]);
      const redirectPaid = (await paymentStatus(m, first.body.id)).body.result.code === '000.100.110';
      const cardPaid = card!.body.result.code === '000.100.110';
      expect(redirectPaid !== cardPaid, `lag ${lag}: exactly one payment succeeds`).toBe(true);
      if (redirectPaid) expect(card!.body.result.code).toBe('100.350.101');
      else expect((await paymentStatus(m, first.body.id)).body.result.code).toBe('100.396.101');
      const final = await checkoutStatus(id);
      expect(final.body.result.code).toBe('000.100.110');
      expect(final.body.id).toBe(redirectPaid ? first.body.id : card!.body.id);
      expect((await widgetSession(id)).state).toBe('completed');
      outcomes.add(redirectPaid ? 'redirect' : 'card');
    }
    // Both orders happened: the approval won some races, the new submission others.
    expect([...outcomes].sort()).toEqual(['card', 'redirect']);
  });

  it('Regression: a decline that has not yet reopened the checkout does not let it be paid twice', async () => {
    const id = await create();
    const first = await paypal(id);
    // The shopper's decline ends the payment, then stalls before it reopens the checkout.
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    const settle = gw.store.settleCheckoutPayment.bind(gw.store);
    const spy = vi.spyOn(gw.store, 'settleCheckoutPayment').mockImplementationOnce(async (...args) => {
      await stalled;
      return settle(...args);
    });
    try {
      const decline = act(sessionOf(first), 'decline');
      await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1));
      // Meanwhile the shopper pays with a card.
      const card = await submit(id, CARD_FIELDS);
      expect(card.body.result.code).toBe('000.100.110');
      release();
      expect((await decline).status).toBe(303);
    } finally {
      spy.mockRestore();
    }
    expect((await paymentStatus(m, first.body.id)).body.result.code).toBe('800.100.170');
    const paid = await checkoutStatus(id);
    expect(paid.body.result.code).toBe('000.100.110');
    expect((await widgetSession(id)).state).toBe('completed');
    const again = await submit(id, CARD_FIELDS);
    expect(again.body.result.code).toBe('100.350.101');
  });

  it('Regression: a submission refused because the checkout expired leaves its pending attempt alone', async () => {
    const id = await create();
    clock.advance(25 * MINUTE);
    const first = await paypal(id);
    expectPending(first);
    clock.advance(6 * MINUTE); // the checkout has expired; its payment has 24 minutes left
    const late = await submit(id, CARD_FIELDS);
    expect(late.status).toBe(400);
    expect(late.body.result.code).toBe('200.300.404');
    expect((await paymentStatus(m, first.body.id)).body.result.code).toBe('000.200.000');
    // The shopper completes it at the provider: the checkout is paid with it.
    expect((await act(sessionOf(first), 'approve')).headers.get('location')).toBe(checkoutReturn(id));
    expect((await paymentStatus(m, first.body.id)).body.result.code).toBe('000.100.110');
    expect((await checkoutStatus(id)).body.result.code).toBe('000.100.110');
    expect(await gw.paymentIds(m.merchantId)).not.toContain(late.body.id);
  });

  describe('the browser of a 3-D Secure checkout', () => {
    const billing = {
      'billing.street1': 'Hauptstrasse 1',
      'billing.city': 'Berlin',
      'billing.postcode': '10115',
      'billing.country': 'DE',
    };
    const browser = {
      'customer.browser.language': 'de-DE',
      'customer.browser.screenHeight': '1080',
      'customer.browser.screenWidth': '1920',
      'customer.browser.timezone': '-60',
      'customer.browser.javaEnabled': 'false',
    };
    const enrolled = { ...CARD_FIELDS, 'card.number': '4200000000000091', ...browser };
    const headers = { 'User-Agent': 'Mozilla/5.0 (Shopper)', Accept: 'text/html,*/*;q=0.8' };

    it('takes userAgent and acceptHeader from the request headers', async () => {
      const id = await create(secure, billing);
      const res = await submit(id, enrolled, headers);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      // The answer to the widget (no credentials) shows no personal data: the merchant reads it.
      const full = (await checkoutStatus(id, secure)).body;
      expect(full.customer.browser).toMatchObject({
        userAgent: 'Mozilla/5.0 (Shopper)',
        acceptHeader: 'text/html,*/*;q=0.8',
        language: 'de-DE',
      });
      expect(full.threeDSecure.authenticationStatus).toBe('Y');
    });

    it("keeps the page's own values", async () => {
      const id = await create(secure, billing);
      const res = await submit(
        id,
        {
          ...enrolled,
          'customer.browser.userAgent': 'Sent/1.0',
          'customer.browser.acceptHeader': 'text/html',
        },
        headers,
      );
      expect(res.status).toBe(200);
      expect((await checkoutStatus(id, secure)).body.customer.browser).toMatchObject({
        userAgent: 'Sent/1.0',
        acceptHeader: 'text/html',
      });
    });

    it('without the headers the fields are missing', async () => {
      const id = await create(secure, billing);
      const res = await submit(id, enrolled);
      expect(res.status).toBe(400);
      expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name).sort()).toEqual([
        'customer.browser.acceptHeader',
        'customer.browser.userAgent',
      ]);
      // The checkout is still open.
      expect((await widgetSession(id)).state).toBe('open');
    });

    it('a channel without 3-D Secure adds nothing', async () => {
      const id = await create(m, billing);
      const res = await submit(id, enrolled, headers);
      expect(res.body.result.code).toBe('000.100.110');
      const { browser } = (await checkoutStatus(id)).body.customer;
      expect(browser.userAgent).toBeUndefined();
      expect(browser.acceptHeader).toBeUndefined();
    });

    it('a challenge in a checkout returns to the checkout', async () => {
      const id = await create(secure, { ...billing, shopperResultUrl: SHOP });
      const res = await submit(id, { ...enrolled, 'card.number': '4200000000000042' }, headers);
      expectPending(res);
      const session = res.body.redirect.parameters.find(
        (p: { name: string }) => p.name === 'threeDSSessionData',
      ).value;
      const back = await gw.post('/simulators/acs/challenge/answer', {
        threeDSSessionData: session,
        action: 'submit',
        otp: '1234',
      });
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe(checkoutReturn(id));
      const paid = await checkoutStatus(id, secure);
      expect(paid.body.result.code).toBe('000.100.110');
      expect(paid.body.threeDSecure.authType).toBe('02');
    });
  });
});

describe('pending payments on one PostgreSQL shared by two gateways', () => {
  let cluster: PostgresCluster;
  let a: TestGateway;
  let b: TestGateway;
  let m: TestMerchant;
  const clock = fakeClock();

  beforeAll(async () => {
    cluster = await startPostgres();
    a = await testGateway({ clock, databaseUrl: cluster.url, pending: { autoStart: false } });
    b = await testGateway({ clock, databaseUrl: cluster.url, pending: { autoStart: false } });
    m = await a.addMerchant({ channels: 1 });
  }, 60_000);
  afterAll(async () => {
    await a?.cleanup();
    await b?.cleanup();
    await cluster?.stop();
  }, 60_000);

  const onA = helpers(() => a);
  const onB = helpers(() => b);

  /** The outcome of each session of these payments, straight from the database. */
  async function outcomes(paymentIds: readonly string[]): Promise<Map<string, string | null>> {
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      const rows = await client.query<{ payment_id: string; outcome: string | null }>(
        'SELECT payment_id, outcome FROM payment_sessions WHERE payment_id = ANY($1)',
        [paymentIds],
      );
      return new Map(rows.rows.map((r) => [r.payment_id, r.outcome]));
    } finally {
      await client.end();
    }
  }

  it('both workers at once: each of 20 expired payments times out exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await (i % 2 === 0 ? onA : onB).pay(m, BRANDS[i % BRANDS.length]!);
      expectPending(res);
      ids.push(res.body.id);
    }
    clock.advance(30 * MINUTE);
    const counts = await Promise.all([
      a.pending.runOnce(),
      b.pending.runOnce(),
      a.pending.runOnce(),
      b.pending.runOnce(),
    ]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(20);
    for (const [i, id] of ids.entries()) {
      const res = await (i % 2 === 0 ? onB : onA).status(m, id);
      expect(res.body.result.code).toBe('100.396.103');
    }
    const ended = await outcomes(ids);
    expect([...ended.values()]).toEqual(Array(20).fill('timedOut'));
    expect(await Promise.all([a.pending.runOnce(), b.pending.runOnce()])).toEqual([0, 0]);
  });

  it("a shopper's approval on A racing the timeout on B: exactly one outcome each", async () => {
    // The approval starts `lag` ms after the worker's run. Past 30 minutes an approval times the
    // payment out too, so the outcome is the timeout either way; whichever finisher wins, exactly
    // one ends it (the worker counts it, or the page did), and payment and session agree.
    for (let lag = 0; lag < 12; lag++) {
      const res = await onA.pay(m, 'PAYPAL');
      const session = sessionOf(res);
      clock.advance(30 * MINUTE);
      const [timedOut, page] = await Promise.all([
        b.pending.runOnce(),
        sleep(lag).then(() => onA.act(session, 'approve')),
      ]);
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe(paymentReturn(res.body.id));
      const code = (await onB.status(m, res.body.id)).body.result.code;
      const outcome = (await outcomes([res.body.id])).get(res.body.id);
      expect(timedOut).toBeLessThanOrEqual(1);
      expect(code).toBe('100.396.103');
      expect(outcome).toBe('timedOut');
      expect(await Promise.all([a.pending.runOnce(), b.pending.runOnce()])).toEqual([0, 0]);
      expect((await onA.act(session, 'cancel')).status).toBe(303);
      expect((await onA.status(m, res.body.id)).body.result.code).toBe(code);
    }
  });
});
