import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISA_CARD_WITHOUT_HOLDER } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

/** A merchant-initiated repeat without a schedule, as a card-on-file charge sends it. */
const MIT_REPEAT = {
  'standingInstruction.mode': 'REPEATED',
  'standingInstruction.source': 'MIT',
  'standingInstruction.type': 'UNSCHEDULED',
} as const;

describe('/v1/registrations over HTTP', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway();
    m = await gw.addMerchant({ channels: 1 });
    other = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw.cleanup());

  const post = (path: string, params: Record<string, string>, who = m) =>
    gw.post(path, { entityId: who.entityId, ...params }, { token: who.token });
  const get = (path: string, who = m) => gw.get(path, { entityId: who.entityId }, { token: who.token });

  it('stores a card, reads it, pays with it, deletes it', async () => {
    const created = await post('/v1/registrations', {
      ...VISA_CARD_WITHOUT_HOLDER,
      'card.holder': 'Jane Jones',
    });
    expect(created.status).toBe(200);
    expect(created.body.result.code).toBe('000.100.110');
    expect(created.body.id).toMatch(/^[0-9a-f]{32}$/);
    expect(created.body.card).toEqual({
      bin: '420000',
      last4Digits: '0000',
      holder: 'Jane Jones',
      expiryMonth: '05',
      expiryYear: '2034',
    });
    expect(created.text).not.toContain('4200000000000000');

    const read = await get(`/v1/registrations/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.card.last4Digits).toBe('0000');
    // answered like a payment of the mode, as the creation was (decisions)
    expect(read.body.result.code).toBe('000.100.110');
    expect(read.body.registrationAnswer).toBeUndefined();

    const paid = await post(`/v1/registrations/${created.body.id}/payments`, {
      amount: '15.00',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      result: { code: '000.100.110' },
      registrationId: created.body.id,
      paymentBrand: 'VISA',
      amount: '15.00',
      card: { last4Digits: '0000' },
    });

    const deleted = await gw.send(
      'DELETE',
      `/v1/registrations/${created.body.id}?entityId=${m.entityId}`,
      undefined,
      { token: m.token },
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body.result.code).toBe('000.100.110');
    const again = await post(`/v1/registrations/${created.body.id}/payments`, {
      amount: '1.00',
      currency: 'EUR',
      paymentType: 'DB',
    });
    expect(again.status).toBe(400);
    expect(again.body.result.code).toBe('100.150.202');
    expect((await get(`/v1/registrations/${created.body.id}`)).status).toBe(404);
  });

  it('registers along a payment with createRegistration=true (or 1)', async () => {
    for (const flag of ['true', '1']) {
      const paid = await post('/v1/payments', {
        ...VISA_CARD_WITHOUT_HOLDER,
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        createRegistration: flag,
      });
      expect(paid.status).toBe(200);
      expect(paid.body.registrationId).toMatch(/^[0-9a-f]{32}$/);
      expect((await get(`/v1/registrations/${paid.body.registrationId}`)).status).toBe(200);
    }
  });

  it('refuses a registration that fails the card checks, and keeps nothing', async () => {
    const created = await post('/v1/registrations', {
      ...VISA_CARD_WITHOUT_HOLDER,
      'card.number': '4444444444444444',
    });
    expect(created.status).toBe(400);
    expect(created.body.result.code).toBe('100.100.101');
    expect((await get(`/v1/registrations/${created.body.id}`)).status).toBe(404);
  });

  it('keeps registrations between merchants apart', async () => {
    const created = await post('/v1/registrations', VISA_CARD_WITHOUT_HOLDER);
    expect((await get(`/v1/registrations/${created.body.id}`, other)).status).toBe(404);
    const paid = await post(
      `/v1/registrations/${created.body.id}/payments`,
      { amount: '1.00', currency: 'EUR', paymentType: 'DB' },
      other,
    );
    expect(paid.body.result.code).toBe('100.150.200');
  });

  it('returns the standing-instruction ids of an initial CIT and checks them on MIT repeats', async () => {
    const initial = await post('/v1/payments', {
      ...VISA_CARD_WITHOUT_HOLDER,
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      createRegistration: 'true',
      'standingInstruction.mode': 'INITIAL',
      'standingInstruction.source': 'CIT',
      'standingInstruction.type': 'UNSCHEDULED',
    });
    expect(initial.status).toBe(200);
    const { initialTransactionId, agreementId } = initial.body.standingInstruction;
    expect(initialTransactionId).toMatch(/^\d{15}$/);
    expect(agreementId).toBeTruthy();

    const repeat = (extra: Record<string, string>) =>
      post(`/v1/registrations/${initial.body.registrationId}/payments`, {
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...MIT_REPEAT,
        ...extra,
      });
    expect((await repeat({ 'standingInstruction.initialTransactionId': initialTransactionId })).status).toBe(
      200,
    );
    expect((await repeat({ 'standingInstruction.agreementId': agreementId })).status).toBe(200);
    const wrong = await repeat({ 'standingInstruction.initialTransactionId': '000000000000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.result.parameterErrors[0].name).toBe('standingInstruction.initialTransactionId');
    expect((await repeat({})).status).toBe(400);
  });

  it('uses a holder sent with overrideHolder only where the stored one is empty', async () => {
    const created = await post('/v1/registrations', VISA_CARD_WITHOUT_HOLDER);
    const paid = await post(`/v1/registrations/${created.body.id}/payments`, {
      amount: '1.00',
      currency: 'EUR',
      paymentType: 'DB',
      overrideHolder: 'true',
      'card.holder': 'Joe Bloggs',
    });
    expect(paid.body.card.holder).toBe('Joe Bloggs');
    expect((await get(`/v1/registrations/${created.body.id}`)).body.card.holder).toBeUndefined();
  });
  it('repeats a stand-alone registration as MIT without the merchant naming its agreement', async () => {
    // a stand-alone registration is the cardholder's initial agreement (decisions, Fidelity)
    const created = await post('/v1/registrations', VISA_CARD_WITHOUT_HOLDER);
    expect(created.status).toBe(200);
    const repeat = await post(`/v1/registrations/${created.body.id}/payments`, {
      amount: '10.00',
      currency: 'USD',
      paymentType: 'DB',
      ...MIT_REPEAT,
      recurringType: 'REPEATED',
    });
    expect(repeat.status).toBe(200);
    expect(repeat.body.result.code).toBe('000.100.110');
  });

  it('accepts amount and currency on a registration, moving no money, and echoes them', async () => {
    // a register-card call of the family sends them (activemerchant's store)
    const created = await post('/v1/registrations', {
      ...VISA_CARD_WITHOUT_HOLDER,
      amount: '1.00',
      currency: 'SAR',
    });
    expect(created.status).toBe(200);
    expect(created.body.result.code).toBe('000.100.110');
    expect(created.body).toMatchObject({ amount: '1.00', currency: 'SAR' });
    expect(await gw.paymentIds(m.merchantId)).not.toContain(created.body.id);
  });
  it('takes as initialTransactionId the id of what set the agreement up (the registration, its CIT payment)', async () => {
    // Hyperswitch's ACI connector quotes the setup answer's id: the registration's, or the CIT payment's
    const repeat = (registrationId: string, initialTransactionId: string) =>
      post(`/v1/registrations/${registrationId}/payments`, {
        amount: '60.00',
        currency: 'EUR',
        paymentType: 'DB',
        'standingInstruction.mode': 'REPEATED',
        'standingInstruction.type': 'UNSCHEDULED',
        'standingInstruction.source': 'MIT',
        'standingInstruction.initialTransactionId': initialTransactionId,
        recurringType: 'REPEATED',
      });
    const mandate = await post('/v1/registrations', VISA_CARD_WITHOUT_HOLDER);
    expect((await repeat(mandate.body.id, mandate.body.id)).body.result.code).toBe('000.100.110');
    const cit = await post('/v1/payments', {
      ...VISA_CARD_WITHOUT_HOLDER,
      amount: '60.00',
      currency: 'EUR',
      paymentType: 'DB',
      createRegistration: 'true',
      'standingInstruction.mode': 'INITIAL',
      'standingInstruction.source': 'CIT',
      'standingInstruction.type': 'UNSCHEDULED',
    });
    expect((await repeat(cit.body.registrationId, cit.body.id)).body.result.code).toBe('000.100.110');
    // another payment's id, or another registration's, names no agreement of this one
    const other = await post('/v1/payments', {
      ...VISA_CARD_WITHOUT_HOLDER,
      amount: '1.00',
      currency: 'EUR',
      paymentType: 'DB',
    });
    const refused = await repeat(cit.body.registrationId, other.body.id);
    expect(refused.status).toBe(400);
    expect(refused.body.result.parameterErrors[0].name).toBe('standingInstruction.initialTransactionId');
    expect((await repeat(cit.body.registrationId, mandate.body.id)).status).toBe(400);
  });
});
