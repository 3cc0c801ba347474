/**
 * 3-D Secure at the HTTP level (Hono's in-process `app.request` on a gateway started with
 * `startGateway`, SQLite, a fake clock): every test card of the access control server simulator
 * through POST /v1/payments, the challenge page and its answers, the overrides, the fields v2
 * makes mandatory, 3RI, decoupled and non-payment authentication, external values, registration
 * after a challenge, and the timeout of a challenge nobody answers.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorTarget } from '../../../shared/engine/core/ports';
import { ENROLLED_CARDS } from '../../processors/simulator/access-control-server';
import { SQLITE_FILE } from '../../storage/open';
import { parameterErrorNames as names } from '../../test-kit/answers';
import { fakeClock } from '../../test-kit/clock';
import { VISA_CARD_WITHOUT_HOLDER } from '../../test-kit/fixtures/cards';
import { EXTERNAL_CONNECTOR } from '../../test-kit/fixtures/channels';
import {
  BROWSER,
  CHALLENGE_CARD,
  FRICTIONLESS_CARD,
  V2_FIELDS,
} from '../../test-kit/fixtures/three-d-secure';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const SHOP = 'https://shop.example/result?order=7';
const NOT_ENROLLED = '4200000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HEX32 = /^[0-9a-f]{32}$/;

const brandOf = (number: string) => (number.startsWith('5') ? 'MASTER' : 'VISA');

/** A connector that answers success and keeps what it was sent. */
function recordingConnector() {
  const sent: { target: ConnectorTarget; path: string; body: string }[] = [];
  return {
    sent,
    connector: {
      async send(target: ConnectorTarget, path: string, body: string) {
        sent.push({ target, path, body });
        return { code: '000.100.110', id: 'connector-tx-1' };
      },
    },
  };
}

/** The value of a redirect parameter of a pending answer. */
function parameter(res: TestResponse, name: string): string {
  const found = (res.body.redirect?.parameters ?? []).find((p: { name: string }) => p.name === name);
  expect(found, `redirect parameter ${name}`).toBeDefined();
  return found.value;
}

function expectPending(res: TestResponse): void {
  expect(res.status).toBe(200);
  expect(res.body.result.code).toBe('000.200.000');
  expect(res.body.id).toMatch(HEX32);
}

/** Where the shopper is sent back to for a payment made through /v1/payments. */
const returnTo = (id: string, shop = SHOP) => `${shop}&id=${id}&resourcePath=%2Fv1%2Fpayments%2F${id}`;

describe('3-D Secure over HTTP (SQLite, fake clock)', () => {
  let gw: TestGateway;
  /** A merchant whose channel authenticates with 3-D Secure. */
  let m: TestMerchant;
  /** A merchant whose channel does not. */
  let plain: TestMerchant;
  /** 3-D Secure on, and a connector for testMode=EXTERNAL. */
  let external: TestMerchant;
  const clock = fakeClock();
  const forwarded = recordingConnector();

  beforeAll(async () => {
    gw = await testGateway({ clock, pending: { autoStart: false }, connector: forwarded.connector });
    m = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true } });
    plain = await gw.addMerchant({ channels: 1 });
    external = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true, ...EXTERNAL_CONNECTOR } });
  });
  afterAll(() => gw.cleanup());

  /** An initial card payment with everything v2 needs and a shopperResultUrl. */
  const pay = (number: string, extra: Record<string, string> = {}, who = m, omit: readonly string[] = []) => {
    const params: Record<string, string> = {
      entityId: who.entityId,
      amount: '92.00',
      currency: 'EUR',
      paymentType: 'DB',
      paymentBrand: brandOf(number),
      'card.number': number,
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'card.cvv': '123',
      shopperResultUrl: SHOP,
      ...BROWSER,
      ...extra,
    };
    for (const name of omit) delete params[name];
    return gw.post('/v1/payments', params, { token: who.token });
  };
  const status = (id: string, who = m) =>
    gw.get(`/v1/payments/${id}`, { entityId: who.entityId }, { token: who.token });
  const answer = (session: string, fields: Record<string, string>) =>
    gw.post('/simulators/acs/challenge/answer', { threeDSSessionData: session, ...fields });
  /** A challenge card's payment: pending, with its session id. */
  async function challenged(extra: Record<string, string> = {}, number = CHALLENGE_CARD) {
    const res = await pay(number, extra);
    expectPending(res);
    return { id: res.body.id as string, session: parameter(res, 'threeDSSessionData'), res };
  }
  /** Rows of a table in the SQLite file, counted (read-only). */
  function count(sql: string, ...args: string[]): number {
    const db = new BetterSqlite3(join(gw.dataDir, SQLITE_FILE), { readonly: true });
    try {
      return (db.prepare(sql).get(...args) as { n: number }).n;
    } finally {
      db.close();
    }
  }

  describe('the test cards of the access control server', () => {
    type Expected =
      | { flow: 'frictionless'; status: 'Y' | 'A'; eci: string }
      | {
          flow: 'rejected';
          status: 'U' | 'N' | 'R';
          code: string;
          http: number;
          eci?: string;
          reason: string;
        }
      | { flow: 'not-participating' }
      | { flow: 'challenge' };
    const CARDS: Record<string, Expected> = {
      '4200000000000091': { flow: 'frictionless', status: 'Y', eci: '05' },
      '4200000000000109': { flow: 'frictionless', status: 'A', eci: '06' },
      '4200000000000026': { flow: 'frictionless', status: 'Y', eci: '05' },
      '4200000000000059': { flow: 'frictionless', status: 'A', eci: '06' },
      '4012001037461114': { flow: 'rejected', status: 'U', code: '000.400.103', http: 400, reason: '06' },
      '4012001037141112': {
        flow: 'rejected',
        status: 'N',
        code: '000.400.102',
        http: 400,
        eci: '06',
        reason: '01',
      },
      '4200000000000117': { flow: 'rejected', status: 'R', code: '100.390.114', http: 400, reason: '11' },
      '4532497088771651': { flow: 'not-participating' },
      '4200000000000042': { flow: 'challenge' },
      '4200000000000067': { flow: 'challenge' },
      '4200000000000018': { flow: 'challenge' },
      '4200000000000075': { flow: 'challenge' },
      '4012000000003119': { flow: 'challenge' },
      '4012000000003127': { flow: 'challenge' },
      '5200000000000007': { flow: 'frictionless', status: 'Y', eci: '02' },
      '5200000000000023': { flow: 'frictionless', status: 'A', eci: '01' },
      '5200000000000056': { flow: 'frictionless', status: 'Y', eci: '02' },
      '5200000000000106': { flow: 'frictionless', status: 'A', eci: '01' },
    };

    it('covers every card of ENROLLED_CARDS', () => {
      expect(Object.keys(CARDS).sort()).toEqual(Object.keys(ENROLLED_CARDS).sort());
    });

    it.each(Object.entries(CARDS))('%s: %o', async (number, expected) => {
      const res = await pay(number);
      const t = res.body.threeDSecure;
      expect(res.body.paymentBrand).toBe(brandOf(number));
      switch (expected.flow) {
        case 'frictionless': {
          expect(res.status).toBe(200);
          expect(res.body.result.code).toBe('000.100.110');
          expect(t.authenticationStatus).toBe(expected.status);
          expect(t.eci).toBe(expected.eci);
          expect(t.verificationId).toHaveLength(28);
          expect(t.verificationId).toMatch(/^[A-Za-z0-9+/]{27}=$/);
          expect(t.dsTransactionId).toMatch(UUID);
          expect(t.acsTransactionId).toMatch(UUID);
          expect(t.dsTransactionId).not.toBe(t.acsTransactionId);
          expect(t.version).toBe('2.2.0');
          expect(t.transactionStatusReason).toBeUndefined();
          expect(res.body.redirect).toBeUndefined();
          break;
        }
        case 'rejected': {
          expect(res.status).toBe(expected.http);
          expect(res.body.result.code).toBe(expected.code);
          expect(t.authenticationStatus).toBe(expected.status);
          expect(t.eci).toBe(expected.eci);
          expect(t.verificationId).toBeUndefined();
          expect(t.transactionStatusReason).toBe(expected.reason);
          expect(t.dsTransactionId).toMatch(UUID);
          expect(t.version).toBe('2.2.0');
          expect(res.body.redirect).toBeUndefined();
          break;
        }
        case 'not-participating': {
          expect(res.status).toBe(400);
          expect(res.body.result.code).toBe('000.400.101');
          expect(t).toBeUndefined();
          expect(res.body.redirect).toBeUndefined();
          break;
        }
        case 'challenge': {
          expectPending(res);
          expect(t).toBeUndefined();
          expect(res.body.redirect.url).toBe('http://localhost/simulators/acs/challenge');
          expect(res.body.redirect.parameters.map((p: { name: string }) => p.name)).toEqual([
            'creq',
            'threeDSSessionData',
          ]);
          expect(parameter(res, 'threeDSSessionData')).toMatch(HEX32);
          const creq = JSON.parse(Buffer.from(parameter(res, 'creq'), 'base64url').toString('utf8'));
          expect(creq).toMatchObject({ messageType: 'CReq', messageVersion: '2.2.0' });
          expect(creq.acsTransID).toMatch(UUID);
          break;
        }
      }
      // What the answer said is what was stored.
      const stored = await status(res.body.id);
      expect(stored.body.result.code).toBe(res.body.result.code);
      expect(stored.body.threeDSecure).toEqual(res.body.threeDSecure);
    });

    it('4200000000000000 is not enrolled: exactly 000.100.110, no threeDSecure, no v2 field needed', async () => {
      const res = await pay(NOT_ENROLLED, {}, m, V2_FIELDS);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.threeDSecure).toBeUndefined();
      expect(res.body.redirect).toBeUndefined();
    });

    it('the challenge window size of the browser goes into the CReq', async () => {
      const { res } = await challenged({ 'customer.browser.challengeWindow': '3' });
      const creq = JSON.parse(Buffer.from(parameter(res, 'creq'), 'base64url').toString('utf8'));
      expect(creq.challengeWindowSize).toBe('03');
    });
  });

  describe('the challenge page', () => {
    it.each(['GET', 'POST'])('is served for %s of the redirect parameters', async (method) => {
      const { res, session } = await challenged();
      const params = { creq: parameter(res, 'creq'), threeDSSessionData: session };
      const page =
        method === 'GET'
          ? await gw.get('/simulators/acs/challenge', params)
          : await gw.post('/simulators/acs/challenge', params);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain('frame-ancestors *');
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("form-action 'self' https://shop.example");
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.text).toContain('action="/simulators/acs/challenge/answer"');
      expect(page.text).toContain(`name="threeDSSessionData" value="${session}"`);
      expect(page.text).toContain('92.00 EUR');
      expect(page.text).toContain('0042'); // the last four digits, never the number
      expect(page.text).not.toContain(CHALLENGE_CARD);
    });

    it.each([
      ['an unknown session', '0'.repeat(32)],
      ['a malformed session', 'not-a-session'],
      ['no session', undefined],
    ])('answers 404 for %s', async (_, session) => {
      const params: Record<string, string> = session === undefined ? {} : { threeDSSessionData: session };
      for (const res of [
        await gw.get('/simulators/acs/challenge', params),
        await gw.post('/simulators/acs/challenge', params),
        await gw.post('/simulators/acs/challenge/answer', { ...params, action: 'submit', otp: '1234' }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(res.text).toContain('Unknown payment session');
      }
    });

    it('answers 404 for the session of a redirect method', async () => {
      const res = await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '5.00',
          currency: 'EUR',
          paymentType: 'DB',
          paymentBrand: 'PAYPAL',
          shopperResultUrl: SHOP,
        },
        { token: m.token },
      );
      expectPending(res);
      const session = parameter(res, 'session');
      expect((await gw.get('/simulators/acs/challenge', { threeDSSessionData: session })).status).toBe(404);
      expect((await answer(session, { action: 'submit', otp: '1234' })).status).toBe(404);
      expect((await status(res.body.id)).body.result.code).toBe('000.200.000');
    });
  });

  describe('answering the challenge', () => {
    it('the right code authenticates: 303 to the shopperResultUrl, then the acquirer pays', async () => {
      const { id, session, res } = await challenged();
      expect(res.body.threeDSecure).toBeUndefined();
      const back = await answer(session, { action: 'submit', otp: '1234' });
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe(returnTo(id));

      const final = await status(id);
      expect(final.status).toBe(200);
      expect(final.body.result.code).toBe('000.100.110');
      expect(final.body.redirect).toBeUndefined();
      const t = final.body.threeDSecure;
      expect(t.authenticationStatus).toBe('Y');
      expect(t.authType).toBe('02');
      expect(t.eci).toBe('05');
      expect(t.verificationId).toHaveLength(28);
      expect(t.version).toBe('2.2.0');
      expect(t.challengeMandatedIndicator).toBe('N');
      // The ids are those the challenge request named.
      const creq = JSON.parse(Buffer.from(parameter(res, 'creq'), 'base64url').toString('utf8'));
      expect(t.acsTransactionId).toBe(creq.acsTransID);
      expect(t.dsTransactionId).toMatch(UUID);
      expect(final.body.resultDetails).toMatchObject({ AcquirerResponse: '00' });
    });

    it('a Mastercard challenge answers the Mastercard ECI', async () => {
      const { id, session } = await challenged(
        { 'customParameters[3DS2_flow]': 'challenge' },
        '5200000000000007',
      );
      expect((await answer(session, { action: 'submit', otp: ' 1234 ' })).status).toBe(303);
      const final = await status(id);
      expect(final.body.result.code).toBe('000.100.110');
      expect(final.body.threeDSecure.eci).toBe('02');
    });

    it.each([
      ['a wrong code', { action: 'submit', otp: '0000' }, '800.400.200', 'N'],
      ['no code', { action: 'submit' }, '800.400.200', 'N'],
      ['failing on purpose', { action: 'fail', otp: '1234' }, '800.400.200', 'N'],
      ['cancelling', { action: 'cancel', otp: '1234' }, '100.396.101', undefined],
    ])('%s ends it: %s', async (_, fields, code, authenticationStatus) => {
      const { id, session } = await challenged();
      const back = await answer(session, fields);
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe(returnTo(id));
      const final = await status(id);
      expect(final.status).toBe(400);
      expect(final.body.result.code).toBe(code);
      expect(final.body.redirect).toBeUndefined();
      expect(final.body.threeDSecure?.authenticationStatus).toBe(authenticationStatus);
      if (authenticationStatus === 'N') {
        expect(final.body.threeDSecure.verificationId).toBeUndefined();
        expect(final.body.threeDSecure.eci).toBe('06');
        expect(final.body.threeDSecure.authType).toBe('02');
      }
    });

    it('a second answer changes nothing and still sends the shopper back', async () => {
      const { id, session } = await challenged();
      expect((await answer(session, { action: 'submit', otp: '1234' })).status).toBe(303);
      const first = await status(id);
      const answers: Record<string, string>[] = [
        { action: 'cancel' },
        { action: 'fail' },
        { action: 'submit', otp: '1234' },
      ];
      for (const fields of answers) {
        const again = await answer(session, fields);
        expect(again.status).toBe(303);
        expect(again.headers.get('location')).toBe(returnTo(id));
      }
      const after = await status(id);
      expect(after.body.result.code).toBe('000.100.110');
      expect(after.body.threeDSecure).toEqual(first.body.threeDSecure);
      // The page of an ended session sends the shopper back too, rather than asking again.
      const page = await gw.get('/simulators/acs/challenge', { threeDSSessionData: session });
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe(returnTo(id));
    });

    it('returnMode=message ends it inside the widget: a page that loads /simulators/return.js', async () => {
      const { id, session } = await challenged();
      const page = await gw.get('/simulators/acs/challenge', {
        threeDSSessionData: session,
        returnMode: 'message',
      });
      expect(page.text).toContain('name="returnMode" value="message"');
      const done = await answer(session, { action: 'submit', otp: '1234', returnMode: 'message' });
      expect(done.status).toBe(200);
      expect(done.headers.get('location')).toBeNull();
      expect(done.text).toContain('<script src="/simulators/return.js"></script>');
      expect(done.text).toContain('Request successfully processed');
      expect((await status(id)).body.result.code).toBe('000.100.110');
      const script = await gw.get('/simulators/return.js');
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(script.text).toContain('async-complete');
    });

    it("keeps the shop's own query string and encodes resourcePath", async () => {
      const shop = 'https://shop.example/back?order=8&note=a%20b';
      const { id, session } = await challenged({ shopperResultUrl: shop });
      const back = await answer(session, { action: 'submit', otp: '1234' });
      expect(back.headers.get('location')).toBe(returnTo(id, shop));
    });

    it('the acquirer verdict still applies after authentication', async () => {
      const { id, session, res } = await challenged({ 'customParameters[forceResultCode]': '800.100.151' });
      expect(res.body.result.code).toBe('000.200.000');
      expect((await answer(session, { action: 'submit', otp: '1234' })).status).toBe(303);
      const final = await status(id);
      expect(final.status).toBe(400);
      expect(final.body.result.code).toBe('800.100.151');
      expect(final.body.threeDSecure.authenticationStatus).toBe('Y');
    });

    it('a pending preauthorization cannot be captured until the challenge passes', async () => {
      const { id, session } = await challenged({ paymentType: 'PA' });
      const capture = (amount: string) =>
        gw.post(
          `/v1/payments/${id}`,
          { entityId: m.entityId, amount, currency: 'EUR', paymentType: 'CP' },
          { token: m.token },
        );
      const early = await capture('92.00');
      expect(early.status).toBe(400);
      expect(early.body.result.code).toBe('700.400.570'); // the referenced transaction is still pending
      await answer(session, { action: 'submit', otp: '1234' });
      const captured = await capture('92.00');
      expect(captured.status).toBe(200);
      expect(captured.body.result.code).toBe('000.100.110');
      expect(captured.body.referencedId).toBe(id);
    });

    it('a first payment of a standing instruction gets its scheme reference only once authenticated', async () => {
      const initial = {
        'standingInstruction.mode': 'INITIAL',
        'standingInstruction.type': 'UNSCHEDULED',
        'standingInstruction.source': 'CIT',
      };
      const passed = await challenged(initial);
      expect(passed.res.body.standingInstruction.initialTransactionId).toBeUndefined();
      await answer(passed.session, { action: 'submit', otp: '1234' });
      const paid = await status(passed.id);
      expect(paid.body.standingInstruction).toMatchObject({
        mode: 'INITIAL',
        initialTransactionId: expect.stringMatching(/^\d{15}$/),
        agreementId: expect.stringMatching(HEX32),
      });

      const failed = await challenged(initial);
      await answer(failed.session, { action: 'fail' });
      expect((await status(failed.id)).body.standingInstruction.initialTransactionId).toBeUndefined();
    });

    it('a card the acquirer refuses as invalid is refused before any challenge', async () => {
      const res = await pay(CHALLENGE_CARD, { 'card.expiryYear': '2020' });
      expect(res.status).toBe(400);
      expect(res.body.result.code).toMatch(/^100\.100\./);
      expect(res.body.redirect).toBeUndefined();
    });
  });

  describe('overrides', () => {
    it('3DS2_enrolled=true enrols 4200000000000000: authenticated frictionlessly (Y)', async () => {
      const res = await pay(NOT_ENROLLED, { 'customParameters[3DS2_enrolled]': 'true' });
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.threeDSecure.authenticationStatus).toBe('Y');
      expect(res.body.threeDSecure.eci).toBe('05');
    });

    it('3DS2_enrolled=true with 3DS2_flow=challenge challenges it', async () => {
      const { id, session } = await challenged(
        { 'customParameters[3DS2_enrolled]': 'true', 'customParameters[3DS2_flow]': 'challenge' },
        NOT_ENROLLED,
      );
      await answer(session, { action: 'submit', otp: '1234' });
      expect((await status(id)).body.result.code).toBe('000.100.110');
    });

    it('3DS2_flow=frictionless lets a challenge card through', async () => {
      const res = await pay(CHALLENGE_CARD, { 'customParameters[3DS2_flow]': 'frictionless' });
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.threeDSecure.authenticationStatus).toBe('Y');
    });

    it.each(['4200000000000091', CHALLENGE_CARD, '4200000000000117', '4532497088771651'])(
      '3DS2_enrolled=false on %s: no authentication at all, and no v2 field needed',
      async (number) => {
        const res = await pay(number, { 'customParameters[3DS2_enrolled]': 'false' }, m, V2_FIELDS);
        expect(res.status).toBe(200);
        expect(res.body.result.code).toBe('000.100.110');
        expect(res.body.threeDSecure).toBeUndefined();
        expect(res.body.redirect).toBeUndefined();
      },
    );

    it('challengeIndicator=04 on 4200000000000000: a mandated challenge, challengeMandatedIndicator Y', async () => {
      const { id, session } = await challenged({ 'threeDSecure.challengeIndicator': '04' }, NOT_ENROLLED);
      await answer(session, { action: 'submit', otp: '1234' });
      const final = await status(id);
      expect(final.body.result.code).toBe('000.100.110');
      expect(final.body.threeDSecure).toMatchObject({
        challengeIndicator: '04',
        challengeMandatedIndicator: 'Y',
        authenticationStatus: 'Y',
        authType: '02',
      });
    });

    it.each(['03', '09'])('challengeIndicator=%s challenges a frictionless card', async (indicator) => {
      const { res } = await challenged({ 'threeDSecure.challengeIndicator': indicator }, FRICTIONLESS_CARD);
      expect(res.body.redirect.url).toMatch(/\/simulators\/acs\/challenge$/);
    });

    it.each([
      ['exemptionFlag=01', { 'threeDSecure.exemptionFlag': '01' }],
      ['challengeIndicator=05', { 'threeDSecure.challengeIndicator': '05' }],
    ])('%s on a challenge card: frictionless Y, echoed', async (_, extra) => {
      const res = await pay(CHALLENGE_CARD, extra);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.redirect).toBeUndefined();
      expect(res.body.threeDSecure).toMatchObject({ authenticationStatus: 'Y', eci: '05' });
      for (const [name, value] of Object.entries(extra)) {
        expect(res.body.threeDSecure[name.slice('threeDSecure.'.length)]).toBe(value);
      }
    });

    it('threeDSecure.disable=true bypasses it; false does not turn it on', async () => {
      const bypassed = await pay(CHALLENGE_CARD, { 'threeDSecure.disable': 'true' }, m, V2_FIELDS);
      expect(bypassed.status).toBe(200);
      expect(bypassed.body.result.code).toBe('000.100.110');
      expect(bypassed.body.threeDSecure).toEqual({ disable: 'true' });
      expect(bypassed.body.redirect).toBeUndefined();

      const off = await pay(CHALLENGE_CARD, { 'threeDSecure.disable': 'false' }, plain, V2_FIELDS);
      expect(off.body.result.code).toBe('000.100.110');
      expect(off.body.redirect).toBeUndefined();
      expect(off.body.threeDSecure).toEqual({ disable: 'false' });
    });

    it.each(Object.keys(ENROLLED_CARDS))(
      'a channel without 3-D Secure pays %s without authentication',
      async (number) => {
        const res = await pay(number, {}, plain, V2_FIELDS);
        expect(res.status).toBe(200);
        expect(res.body.result.code).toBe('000.100.110');
        expect(res.body.threeDSecure).toBeUndefined();
        expect(res.body.redirect).toBeUndefined();
      },
    );

    it('testMode=EXTERNAL is not simulated: the connector decides, no redirect to our simulator', async () => {
      forwarded.sent.length = 0;
      const res = await pay(CHALLENGE_CARD, { testMode: 'EXTERNAL' }, external);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.112');
      expect(res.body.redirect).toBeUndefined();
      expect(res.body.threeDSecure).toBeUndefined();
      expect(forwarded.sent).toHaveLength(1);
      expect(forwarded.sent[0]!.path).toBe('/v1/payments');
      expect(forwarded.sent[0]!.body).toContain(`card.number=${CHALLENGE_CARD}`);
    });
  });

  // Server to server, what the merchant did not send of the shopper's browser or address is met on
  // the gateway's own page, as the family's platform does (Hyperswitch's ACI connector sends an
  // enrolled card without either and gets the challenge: server/fidelity/corpus/hyperswitch-aci.ts).
  // A checkout submission, where the widget can ask, is refused naming each field instead
  // (shared/engine/operations/checkout/billing-when-needed.test.ts).
  describe('the fields v2 makes mandatory', () => {
    it('an enrolled card without browser and billing data: pending, the shopper sent to the gateway, no 400', async () => {
      const res = await pay(FRICTIONLESS_CARD, {}, m, V2_FIELDS);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.200.000');
      expect(res.body.redirect.url).toMatch(/^http/);
      expect(res.body.result.parameterErrors).toBeUndefined();
    });

    it.each(V2_FIELDS)('without %s alone: pending with a redirect, never a 400', async (field) => {
      const res = await pay(CHALLENGE_CARD, {}, m, [field]);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.200.000');
      expect(res.body.redirect.url).toMatch(/^http/);
    });

    it('standingInstruction.type=INSTALLMENT needs numberOfInstallments', async () => {
      const instalment = {
        'standingInstruction.type': 'INSTALLMENT',
        'standingInstruction.mode': 'INITIAL',
        'standingInstruction.source': 'CIT',
      };
      const res = await pay(FRICTIONLESS_CARD, instalment);
      expect(res.status).toBe(400);
      expect(names(res)).toEqual(['standingInstruction.numberOfInstallments']);
      const ok = await pay(FRICTIONLESS_CARD, {
        ...instalment,
        'standingInstruction.numberOfInstallments': '3',
      });
      expect(ok.status).toBe(200);
      expect(ok.body.result.code).toBe('000.100.110');
      // Not enrolled: 3-D Secure does not apply, nor its mandatory fields.
      const notEnrolled = await pay(NOT_ENROLLED, instalment);
      expect(notEnrolled.body.result.code).toBe('000.100.110');
    });

    it.each([
      ['threeDSecure.channel=03', { 'threeDSecure.channel': '03' }],
      ['threeDSecure.threeRIInd=RECURRING', { 'threeDSecure.threeRIInd': 'RECURRING' }],
    ])('a 3RI request (%s) needs none of them', async (_, extra) => {
      const res = await pay(FRICTIONLESS_CARD, extra, m, V2_FIELDS);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.threeDSecure.authenticationStatus).toBe('Y');
    });

    it('a 3RI request with a challenge card: 300.100.100, the cardholder is not there', async () => {
      const res = await pay(CHALLENGE_CARD, { 'threeDSecure.channel': '03' }, m, [
        ...V2_FIELDS,
        'shopperResultUrl',
      ]);
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('300.100.100');
      expect(res.body.redirect).toBeUndefined();
      expect(res.body.threeDSecure.authenticationStatus).toBe('N');
    });

    it.each(['01', '02'])(
      'threeDSecure.channel=%s is a shopper present: a frictionless card without a field meets the shopper',
      async (ch) => {
        const res = await pay(FRICTIONLESS_CARD, { 'threeDSecure.channel': ch }, m, ['billing.city']);
        expect(res.status).toBe(200);
        expect(res.body.result.code).toBe('000.200.000');
        expect(res.body.redirect.url).toMatch(/^http/);
      },
    );
  });

  describe('where the shopper returns', () => {
    it('a challenge without shopperResultUrl (server-to-server): 400 naming shopperResultUrl', async () => {
      const res = await pay(CHALLENGE_CARD, {}, m, ['shopperResultUrl']);
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(names(res)).toEqual(['shopperResultUrl']);
      // A frictionless card needs none.
      expect((await pay(FRICTIONLESS_CARD, {}, m, ['shopperResultUrl'])).body.result.code).toBe(
        '000.100.110',
      );
    });

    it('a redirect brand without shopperResultUrl: 400 naming shopperResultUrl', async () => {
      const res = await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '5.00',
          currency: 'EUR',
          paymentType: 'DB',
          paymentBrand: 'SOFORTUEBERWEISUNG',
        },
        { token: m.token },
      );
      expect(res.status).toBe(400);
      expect(names(res)).toEqual(['shopperResultUrl']);
      expect(res.body.result.parameterErrors[0].message).toContain('SOFORTUEBERWEISUNG');
    });
  });

  describe('non-payment authentication (threeDSecure.npa=true)', () => {
    const npa = { 'threeDSecure.npa': 'true', 'customParameters[forceResultCode]': '800.100.151' };

    it('frictionless: 000.100.110 without the acquirer', async () => {
      const res = await pay(FRICTIONLESS_CARD, npa);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.threeDSecure).toMatchObject({ npa: 'true', authenticationStatus: 'Y' });
      expect(res.body.resultDetails).toEqual({ clearingInstituteName: 'Simulator' });
    });

    it('after a challenge: 000.100.110 without the acquirer', async () => {
      const { id, session } = await challenged(npa);
      await answer(session, { action: 'submit', otp: '1234' });
      const final = await status(id);
      expect(final.body.result.code).toBe('000.100.110');
      expect(final.body.threeDSecure).toMatchObject({
        npa: 'true',
        authenticationStatus: 'Y',
        authType: '02',
      });
      expect(final.body.resultDetails).toEqual({ clearingInstituteName: 'Simulator' });
    });

    it('the payment without npa is declined by the forced code', async () => {
      const res = await pay(FRICTIONLESS_CARD, { 'customParameters[forceResultCode]': '800.100.151' });
      expect(res.body.result.code).toBe('800.100.151');
    });
  });

  describe("an external server's authentication", () => {
    const values = {
      'threeDSecure.eci': '05',
      'threeDSecure.verificationId': 'AAACAgSRBklmQCFgMpEGAAAAAAA=',
      'threeDSecure.authenticationStatus': 'Y',
      'threeDSecure.challengeIndicator': '04',
      'threeDSecure.exemptionFlag': '01',
    };

    it('is passed through: no redirect, 000.100.110, the values echoed', async () => {
      const res = await pay(CHALLENGE_CARD, values, m, ['shopperResultUrl']);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.redirect).toBeUndefined();
      expect(res.body.threeDSecure).toMatchObject({
        eci: '05',
        authenticationStatus: 'Y',
        challengeIndicator: '04',
        exemptionFlag: '01',
      });
      // Not ours: none of the values our own authentication adds.
      expect(res.body.threeDSecure.dsTransactionId).toBeUndefined();
      expect(res.body.threeDSecure.authType).toBeUndefined();
    });

    it('authenticationStatus=Y without verificationId: 400 naming threeDSecure.verificationId', async () => {
      const res = await pay(CHALLENGE_CARD, values, m, ['threeDSecure.verificationId']);
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(names(res)).toEqual(['threeDSecure.verificationId']);
    });

    it('authenticationStatus=N needs no verificationId', async () => {
      const res = await pay(CHALLENGE_CARD, {
        'threeDSecure.eci': '07',
        'threeDSecure.authenticationStatus': 'N',
      });
      expect(res.body.redirect).toBeUndefined();
      expect(res.body.threeDSecure).toMatchObject({ eci: '07', authenticationStatus: 'N' });
    });
  });

  describe('createRegistration=true with a challenge card', () => {
    const registrations = () =>
      count('SELECT COUNT(*) AS n FROM registrations WHERE merchant_id = ?', m.merchantId);

    it('registers only once the challenge passes', async () => {
      const before = registrations();
      const { id, session, res } = await challenged({ createRegistration: 'true' });
      expect(res.body.registrationId).toBeUndefined();
      expect(registrations()).toBe(before);

      await answer(session, { action: 'submit', otp: '1234' });
      const final = await status(id);
      expect(final.body.result.code).toBe('000.100.110');
      expect(final.body.registrationId).toMatch(HEX32);
      expect(registrations()).toBe(before + 1);
      const registration = await gw.get(
        `/v1/registrations/${final.body.registrationId}`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(registration.status).toBe(200);
      expect(registration.body.id).toBe(final.body.registrationId);
      expect(registration.body.card.last4Digits).toBe('0042');
      // It pays like any registration.
      const repeat = await gw.post(
        `/v1/registrations/${final.body.registrationId}/payments`,
        { entityId: m.entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB' },
        { token: m.token },
      );
      expect(repeat.body.result.code).toBe('000.100.110');
    });

    it.each<Record<string, string>>([{ action: 'submit', otp: '9999' }, { action: 'cancel' }])(
      'registers nothing after %o',
      async (fields) => {
        const before = registrations();
        const { id, session } = await challenged({ createRegistration: 'true' });
        await answer(session, fields);
        const final = await status(id);
        expect(final.status).toBe(400);
        expect(final.body.registrationId).toBeUndefined();
        expect(registrations()).toBe(before);
      },
    );
  });
});

describe('3-D Secure and the clock: decoupled answers and timeouts', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  const clock = fakeClock();

  beforeAll(async () => {
    gw = await testGateway({ clock, pending: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true } });
  });
  afterAll(() => gw.cleanup());

  const pay = (extra: Record<string, string> = {}) =>
    gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...VISA_CARD_WITHOUT_HOLDER,
        'card.number': CHALLENGE_CARD,
        shopperResultUrl: SHOP,
        ...BROWSER,
        ...extra,
      },
      { token: m.token },
    );
  const status = (id: string) => gw.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token: m.token });

  it('decoupled: pending without a redirect; the cardholder answers in the banking app after 10 s', async () => {
    const res = await pay({ 'threeDSecure.decoupled': 'true' });
    expectPending(res);
    expect(res.body.redirect).toBeUndefined();

    clock.advance(9_999);
    expect(await gw.pending.runOnce()).toBe(0);
    expect((await status(res.body.id)).body.result.code).toBe('000.200.000');

    clock.advance(1);
    expect(await gw.pending.runOnce()).toBe(1);
    const final = await status(res.body.id);
    expect(final.body.result.code).toBe('000.100.110');
    expect(final.body.threeDSecure).toMatchObject({ authType: '04', authenticationStatus: 'Y', eci: '05' });
    expect(final.body.threeDSecure.verificationId).toHaveLength(28);
    expect(await gw.pending.runOnce()).toBe(0);
  });

  it('decoupled needs no shopperResultUrl', async () => {
    // An empty value counts as not sent.
    const res = await pay({ 'threeDSecure.decoupled': 'true', shopperResultUrl: '' });
    expectPending(res);
    clock.advance(10 * SECOND);
    expect(await gw.pending.runOnce()).toBe(1);
    expect((await status(res.body.id)).body.result.code).toBe('000.100.110');
  });

  it('a challenge nobody answers times out after 30 minutes (100.396.103), and stays so', async () => {
    const res = await pay();
    expectPending(res);
    const id: string = res.body.id;
    const session = parameter(res, 'threeDSSessionData');

    clock.advance(29 * MINUTE + 59 * SECOND);
    expect(await gw.pending.runOnce()).toBe(0);
    expect((await status(id)).body.result.code).toBe('000.200.000');

    clock.advance(SECOND);
    expect(await gw.pending.runOnce()).toBe(1);
    const final = await status(id);
    expect(final.status).toBe(400);
    expect(final.body.result.code).toBe('100.396.103');
    expect(final.body.redirect).toBeUndefined();
    expect(await gw.pending.runOnce()).toBe(0);

    // The page does not reopen it: the shopper is sent back, and a late answer changes nothing.
    const page = await gw.get('/simulators/acs/challenge', { threeDSSessionData: session });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(returnTo(id));
    const late = await gw.post('/simulators/acs/challenge/answer', {
      threeDSSessionData: session,
      action: 'submit',
      otp: '1234',
    });
    expect(late.status).toBe(303);
    expect((await status(id)).body.result.code).toBe('100.396.103');
    const message = await gw.get('/simulators/acs/challenge', {
      threeDSSessionData: session,
      returnMode: 'message',
    });
    expect(message.status).toBe(200);
    expect(message.text).toContain('/simulators/return.js');
    expect(message.text).not.toContain('name="otp"');
  });
});
