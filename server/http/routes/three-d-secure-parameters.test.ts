/**
 * The 3-D Secure parameters of issue 29 over HTTP: `threeDSecure.xid` (the external 3-D Secure 1
 * transaction id, DECISIONS "Fidelity to the family") passed through with the other external
 * values; `threeDSecure.challengeIndicator` and `exemptionFlag` ("v2.2 or higher", spec) refused
 * beside an older `threeDSecure.version`, accepted beside 2.2 or later or without a version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorTarget } from '../../../shared/engine/core/ports';
import { parameterErrorNames as names } from '../../test-kit/answers';
import { fakeClock } from '../../test-kit/clock';
import { EXTERNAL_CONNECTOR } from '../../test-kit/fixtures/channels';
import { BROWSER, CHALLENGE_CARD } from '../../test-kit/fixtures/three-d-secure';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

const XID = 'CAACCVVUlwCXUyhQNlSXAAAAAAA=';
const VERIFICATION_ID = 'AAACAgSRBklmQCFgMpEGAAAAAAA=';
const NOT_ENROLLED = '4200000000000000';

describe('3-D Secure parameters (HTTP, SQLite)', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let external: TestMerchant;
  const sent: { target: ConnectorTarget; path: string; body: string }[] = [];

  beforeAll(async () => {
    gw = await testGateway({
      clock: fakeClock(),
      pending: { autoStart: false },
      connector: {
        async send(target: ConnectorTarget, path: string, body: string) {
          sent.push({ target, path, body });
          return { code: '000.100.110', id: 'connector-tx-1' };
        },
      },
    });
    m = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true } });
    external = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true, ...EXTERNAL_CONNECTOR } });
  });
  afterAll(() => gw.cleanup());

  const pay = (number: string, extra: Record<string, string>, who = m) =>
    gw.post(
      '/v1/payments',
      {
        entityId: who.entityId,
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: 'VISA',
        'card.number': number,
        'card.holder': 'Jane Jones',
        'card.expiryMonth': '05',
        'card.expiryYear': '2034',
        'card.cvv': '123',
        shopperResultUrl: 'https://shop.example/result',
        ...BROWSER,
        ...extra,
      },
      { token: who.token },
    );

  describe('threeDSecure.xid', () => {
    const v1 = {
      'threeDSecure.xid': XID,
      'threeDSecure.eci': '05',
      'threeDSecure.verificationId': VERIFICATION_ID,
    };

    it('is accepted with eci and verificationId, passed through like them: no authentication of ours, echoed', async () => {
      const res = await pay(CHALLENGE_CARD, v1);
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.redirect).toBeUndefined();
      expect(res.body.threeDSecure).toEqual({ xid: XID, eci: '05' });
      const read = await gw.get(`/v1/payments/${res.body.id}`, { entityId: m.entityId }, { token: m.token });
      expect(read.body.threeDSecure).toMatchObject({ xid: XID, eci: '05' });
    });

    it('goes to the connector with the other external values', async () => {
      sent.length = 0;
      const res = await pay(CHALLENGE_CARD, { ...v1, testMode: 'EXTERNAL' }, external);
      expect(res.status).toBe(200);
      expect(sent).toHaveLength(1);
      const body = new URLSearchParams(sent[0]!.body);
      expect(body.get('threeDSecure.xid')).toBe(XID);
      expect(body.get('threeDSecure.eci')).toBe('05');
      expect(body.get('threeDSecure.verificationId')).toBe(VERIFICATION_ID);
    });

    it('is 28 characters, as a base64 20-byte id: other lengths are refused naming it', async () => {
      const res = await pay(NOT_ENROLLED, { ...v1, 'threeDSecure.xid': 'short' });
      expect(res.status).toBe(400);
      expect(names(res)).toEqual(['threeDSecure.xid']);
    });
  });

  describe('challengeIndicator and exemptionFlag: 3-D Secure 2.2 or higher', () => {
    it.each([
      ['2.1.0', ['threeDSecure.challengeIndicator', 'threeDSecure.exemptionFlag']],
      ['1.0.2', ['threeDSecure.challengeIndicator', 'threeDSecure.exemptionFlag']],
      ['2.2.0', []],
      ['2.3.1', []],
    ])('beside threeDSecure.version=%s: refused %j', async (version, refused) => {
      const res = await pay(NOT_ENROLLED, {
        'threeDSecure.version': version,
        'threeDSecure.challengeIndicator': '02',
        'threeDSecure.exemptionFlag': '01',
      });
      expect(names(res)).toEqual(refused);
      expect(res.status).toBe(refused.length === 0 ? 200 : 400);
      for (const e of res.body.result.parameterErrors ?? []) expect(e.message).toMatch(/2\.2 or higher/);
    });

    it('without a version: accepted', async () => {
      const res = await pay(NOT_ENROLLED, { 'threeDSecure.exemptionFlag': '01' });
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
    });

    it('a version alone is fine', async () => {
      const res = await pay(NOT_ENROLLED, { 'threeDSecure.version': '2.1.0' });
      expect(res.status).toBe(200);
    });
  });
});
