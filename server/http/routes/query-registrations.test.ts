/**
 * The Query API knows registrations (issue 32, uncertain registrations): the family lists RG among
 * the query's paymentTypes, and an opp connector whose upstream is another gateway of this project
 * asks its Query API, by merchantTransactionId, whether an uncertain registration was made
 * (server/connectors/opp/inquire.ts). A registration is found by the merchantTransactionId its
 * request carried, by its id and in a time frame, answered as a transaction of type RG (its id,
 * brand, result, the card masked as its read masks it, its time), filtered by paymentTypes and
 * paymentMethods like a payment, within the caller's channels, never another merchant's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../test-kit/clock';
import { SEPA_DIRECT_DEBIT } from '../../test-kit/fixtures/bank-accounts';
import { VISA_CARD, VISA_CARD_WITHOUT_CVV } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

describe('registrations in the Query API', () => {
  let gw: TestGateway;
  /** Two channels; its token names the first. */
  let m: TestMerchant;
  /** m's token restricted to its second channel. */
  let second: TestMerchant;
  let other: TestMerchant;
  let card: { id: string; read: Record<string, unknown> };
  let sepa: string;
  let payment: string;

  const register = async (who: TestMerchant, params: Record<string, string>) => {
    const res = await gw.post(
      '/v1/registrations',
      { entityId: who.entityId, ...params },
      { token: who.token },
    );
    expect(res.status, res.text).toBe(200);
    return res.body.id as string;
  };
  const query = (params: Record<string, string>, who: TestMerchant = m) =>
    gw.get('/v1/query', { entityId: who.entityId, ...params }, { token: who.token });
  const ids = (res: { body: { payments?: { id: string }[] } }) => (res.body.payments ?? []).map((p) => p.id);

  beforeAll(async () => {
    gw = await testGateway({ clock: fakeClock() }); // 2026-11-21T12:00Z
    m = await gw.addMerchant({ channels: 2 });
    second = { ...m, entityId: m.entityIds[1]!, ...(await gw.addToken(m.merchantId, [m.entityIds[1]!])) };
    other = await gw.addMerchant({ channels: 1 });
    const id = await register(m, { ...VISA_CARD_WITHOUT_CVV, merchantTransactionId: 'order-rg' });
    const read = await gw.get(`/v1/registrations/${id}`, { entityId: m.entityId }, { token: m.token });
    card = { id, read: read.body };
    sepa = await register(m, { ...SEPA_DIRECT_DEBIT, merchantTransactionId: 'order-rg' });
    const paid = await gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        merchantTransactionId: 'order-rg',
        ...VISA_CARD,
      },
      { token: m.token },
    );
    payment = paid.body.id;
    // the same merchantTransactionId elsewhere: m's second channel, and another merchant
    await register(second, { ...VISA_CARD_WITHOUT_CVV, merchantTransactionId: 'order-rg-2' });
    await register(other, { ...VISA_CARD_WITHOUT_CVV, merchantTransactionId: 'order-rg' });
  });
  afterAll(() => gw.cleanup());

  it('finds a registration by the merchantTransactionId its request carried, as a transaction of type RG', async () => {
    const res = await query({ merchantTransactionId: 'order-rg' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.000.100');
    expect(ids(res).sort()).toEqual([card.id, sepa, payment].sort());
    const rg = res.body.payments.find((p: { id: string }) => p.id === card.id);
    expect(rg).toMatchObject({
      id: card.id,
      paymentType: 'RG',
      paymentBrand: 'VISA',
      merchantTransactionId: 'order-rg',
      result: { code: '000.100.110' },
      card: card.read.card,
    });
    expect(rg.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    // the card masked as the registration's read masks it: never the number
    expect(JSON.stringify(res.body)).not.toContain('4200000000000000');
    // a bank account answered as its read answers it
    const read = await gw.get(`/v1/registrations/${sepa}`, { entityId: m.entityId }, { token: m.token });
    const dd = res.body.payments.find((p: { id: string }) => p.id === sepa);
    expect(dd).toMatchObject({
      paymentType: 'RG',
      paymentBrand: 'DIRECTDEBIT_SEPA',
      bankAccount: read.body.bankAccount,
    });
  });

  it('filters by paymentTypes (RG: registrations only; another type leaves them out) and paymentMethods', async () => {
    expect(ids(await query({ merchantTransactionId: 'order-rg', paymentTypes: 'RG' })).sort()).toEqual(
      [card.id, sepa].sort(),
    );
    expect(ids(await query({ merchantTransactionId: 'order-rg', paymentTypes: 'DB' }))).toEqual([payment]);
    expect(
      ids(await query({ merchantTransactionId: 'order-rg', paymentTypes: 'RG', paymentMethods: 'DD' })),
    ).toEqual([sepa]);
    // a short id is a payment's: a search by one finds no registration
    const none = await query({
      merchantTransactionId: 'order-rg',
      paymentTypes: 'RG',
      shortId: '1234.5678.9012',
    });
    expect(none.body.result.code).toBe('700.400.580');
  });

  it('finds registrations in a time frame too, with paymentTypes=RG', async () => {
    const res = await query({
      'date.from': '2026-11-21 00:00:00',
      'date.to': '2026-11-21 23:59:59',
      paymentTypes: 'RG',
    });
    expect(res.status, res.text).toBe(200);
    expect(ids(res).sort()).toEqual([card.id, sepa].sort());
  });

  it('GET /v1/query/{registrationId} answers it; paymentTypes other than RG do not', async () => {
    const res = await gw.get(`/v1/query/${card.id}`, { entityId: m.entityId }, { token: m.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: card.id,
      paymentType: 'RG',
      paymentBrand: 'VISA',
      merchantTransactionId: 'order-rg',
      result: { code: '000.100.110' },
      card: card.read.card,
    });
    const rg = await gw.get(
      `/v1/query/${card.id}`,
      { entityId: m.entityId, paymentTypes: 'RG' },
      { token: m.token },
    );
    expect(rg.body.id).toBe(card.id);
    const db = await gw.get(
      `/v1/query/${card.id}`,
      { entityId: m.entityId, paymentTypes: 'DB' },
      { token: m.token },
    );
    expect(db.status).toBe(400);
    expect(db.body.result.code).toBe('700.400.580');
  });

  it("stays within the caller's channels and never shows another merchant's", async () => {
    // m's second channel's token sees its own registration, none of the first channel's
    expect(ids(await query({ merchantTransactionId: 'order-rg' }, second))).toEqual([]);
    expect((await query({ merchantTransactionId: 'order-rg-2' }, second)).body.payments).toHaveLength(1);
    expect((await query({ merchantTransactionId: 'order-rg-2' })).body.result.code).toBe('700.400.580');
    const byId = await gw.get(`/v1/query/${card.id}`, { entityId: second.entityId }, { token: second.token });
    expect(byId.body.result.code).toBe('700.400.580');
    // another merchant: only its own registration of that merchantTransactionId, never m's
    const theirs = await query({ merchantTransactionId: 'order-rg' }, other);
    expect(theirs.body.payments).toHaveLength(1);
    expect(ids(theirs)).not.toContain(card.id);
    const foreign = await gw.get(
      `/v1/query/${card.id}`,
      { entityId: other.entityId },
      { token: other.token },
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.result.code).toBe('700.400.580');
  });
});
