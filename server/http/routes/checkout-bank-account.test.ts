/**
 * A checkout takes the payment's parameter groups (issue: `bankAccount.country` at checkout
 * creation was "not a known parameter"): the bank account a merchant knows goes with the checkout,
 * completes the shopper's SEPA submission, and gives way when the shopper pays with a card. Card
 * data is never taken at creation: it is typed into the widget's frames.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_FIELDS } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

describe('bank account data at checkout creation', () => {
  let gw: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway();
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw?.cleanup());

  const create = async (params: Record<string, string>) => {
    const res = await gw.post(
      '/v1/checkouts',
      { entityId: m.entityId, amount: '25.00', currency: 'EUR', paymentType: 'DB', ...params },
      { token: m.token },
    );
    return res;
  };

  it('accepts bankAccount.* and adds them to the shopper’s SEPA submission', async () => {
    const created = await create({ 'bankAccount.country': 'DE', 'bankAccount.mandate.id': 'MANDATE-123' });
    expect(created.status, created.text).toBe(200);
    expect(created.body.result.code).toBe('000.200.100');
    const session = await gw.get(`/v1/checkouts/${created.body.id}/session`);
    expect(session.text).not.toContain('MANDATE-123');
    const paid = await gw.post(`/v1/checkouts/${created.body.id}/payment`, {
      paymentBrand: 'DIRECTDEBIT_SEPA',
      'bankAccount.holder': 'Max Mustermann',
      'bankAccount.iban': 'DE89370400440532013000',
      'bankAccount.bic': 'COBADEFFXXX',
    });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.result.code).toBe('000.100.110');
    const status = await gw.get(
      `/v1/checkouts/${created.body.id}/payment`,
      { entityId: m.entityId },
      { token: m.token },
    );
    expect(status.body).toMatchObject({
      paymentBrand: 'DIRECTDEBIT_SEPA',
      bankAccount: { holder: 'Max Mustermann', country: 'DE', mandate: { id: 'MANDATE-123' } },
    });
  });

  it('lets a card submission pay a checkout that named a bank account', async () => {
    const created = await create({ 'bankAccount.country': 'DE' });
    const paid = await gw.post(`/v1/checkouts/${created.body.id}/payment`, CARD_FIELDS);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.result.code).toBe('000.100.110');
    expect(paid.body.paymentBrand).toBe('VISA');
  });

  it('still refuses card data at creation', async () => {
    const res = await create(CARD_FIELDS);
    expect(res.status).toBe(400);
    expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name)).toContain('card.number');
    expect(res.text).not.toContain('4200000000000000');
  });
});
