/**
 * POST /v1/checkouts/{id}: the merchant's server updates an open checkout before the shopper pays
 * (issue 17, point 3). Over HTTP on a gateway started with `startGateway` (SQLite, fake clock):
 * the answer (000.200.101), what the widget's session then shows and what the payment charges,
 * groups replaced as a whole, validation like creation, the checkout's state (completed, expired)
 * and the credentials and channel rules of creation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../test-kit/clock';
import { CARD_FIELDS } from '../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

const MINUTE = 60_000;
const SHOP = 'https://shop.example/return?order=42';

describe('POST /v1/checkouts/{id} (update) over HTTP', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let other: TestMerchant;
  const clock = fakeClock();

  beforeAll(async () => {
    gw = await testGateway({ clock, notifier: { autoStart: false } });
    m = await gw.addMerchant({ channels: 2 });
    other = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw.cleanup());

  const created = async (params: Record<string, string> = {}, who = m): Promise<string> => {
    const all: Record<string, string> = {
      entityId: who.entityId,
      amount: '92.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: SHOP,
      ...params,
    };
    // an empty value leaves the parameter out
    const sent = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== ''));
    const res = await gw.post('/v1/checkouts', sent, { token: who.token });
    expect(res.status).toBe(200);
    return res.body.id;
  };
  const update = (id: string, params: Record<string, string>, who = m, entityId = who.entityId) =>
    gw.post(`/v1/checkouts/${id}`, { entityId, ...params }, { token: who.token });
  const session = (id: string) => gw.get(`/v1/checkouts/${id}/session`);
  const pay = (id: string) => gw.post(`/v1/checkouts/${id}/payment`, CARD_FIELDS);
  const status = (id: string) =>
    gw.get(`/v1/checkouts/${id}/payment`, { entityId: m.entityId }, { token: m.token });

  it('updates the amount: 000.200.101, ndc = id; the session shows it and the payment charges it', async () => {
    const id = await created();
    const res = await update(id, { amount: '50.00' });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ code: '000.200.101', description: 'successfully updated checkout' });
    expect(res.body.id).toBe(id);
    expect(res.body.ndc).toBe(id);

    const widget = await session(id);
    expect(widget.body.amount).toBe('50.00');
    expect(widget.body.currency).toBe('EUR');

    const paid = await pay(id);
    expect(paid.status).toBe(200);
    expect(paid.body.result.code).toBe('000.100.110');
    expect(paid.body.amount).toBe('50.00');
    const read = await status(id);
    expect(read.body.amount).toBe('50.00');
    expect(read.body.paymentType).toBe('DB');
  });

  it('keeps what is not sent and replaces a group that is sent as a whole (a shorter cart stays short)', async () => {
    const id = await created({
      merchantTransactionId: 'order-0042',
      'customer.givenName': 'Jane',
      'customer.surname': 'Jones',
      'customer.email': 'jane@example.com',
      'cart.items[0].name': 'Shoes',
      'cart.items[1].name': 'Socks',
    });
    const res = await update(id, {
      amount: '60.00',
      'cart.items[0].name': 'Boots',
      'customer.givenName': 'Janet',
      'customer.surname': 'Jones',
    });
    expect(res.status).toBe(200);
    expect((await pay(id)).status).toBe(200);
    const read = await status(id);
    expect(read.body.amount).toBe('60.00');
    expect(read.body.merchantTransactionId).toBe('order-0042');
    expect(read.body.cart.items).toEqual([{ name: 'Boots' }]);
    // customer was sent again: the stored e-mail went with the old group
    expect(read.body.customer).toEqual({ givenName: 'Janet', surname: 'Jones' });
  });

  it('validates like creation: bad formats, and the merged checkout (amount in the new currency), with parameterErrors', async () => {
    const id = await created({ amount: '92.50' });
    const bad = await update(id, { amount: '12.5', paymentType: 'RF' });
    expect(bad.status).toBe(400);
    expect(bad.body.result.code).toBe('200.300.404');
    const names = bad.body.result.parameterErrors.map((e: { name: string }) => e.name);
    expect(names).toEqual(expect.arrayContaining(['amount', 'paymentType']));

    // JPY has no minor unit: the stored 92.50 does not fit the new currency.
    const merged = await update(id, { currency: 'JPY' });
    expect(merged.status).toBe(400);
    expect(merged.body.result.parameterErrors.map((e: { name: string }) => e.name)).toContain('amount');
    expect(merged.body.result.parameterErrors.map((e: { name: string }) => e.name)).not.toContain('currency');

    // card data is typed by the shopper, never sent by the merchant
    const card = await update(id, { 'card.number': CARD_FIELDS['card.number'] });
    expect(card.status).toBe(400);
    expect(card.text).not.toContain(CARD_FIELDS['card.number']);

    // nothing changed by the refused updates
    expect((await session(id)).body.amount).toBe('92.50');
  });

  it('keeps the checkout kind: a registration-only checkout takes no paymentType', async () => {
    const id = await created({ createRegistration: 'true', paymentType: '', amount: '', currency: '' });
    const res = await update(id, { paymentType: 'DB', amount: '10.00', currency: 'EUR' });
    expect(res.status).toBe(400);
    expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name)).toContain('paymentType');
  });

  it('refuses a completed checkout (100.350.101) and an expired one (200.300.404)', async () => {
    const paid = await created();
    expect((await pay(paid)).status).toBe(200);
    const closed = await update(paid, { amount: '10.00' });
    expect(closed.status).toBe(400);
    expect(closed.body.result.code).toBe('100.350.101');

    const late = await created();
    clock.advance(30 * MINUTE);
    const expired = await update(late, { amount: '10.00' });
    expect(expired.status).toBe(400);
    expect(expired.body.result.code).toBe('200.300.404');
  });

  it('needs the credentials of creation, and a token and entityId that may use the checkout channel', async () => {
    const id = await created();
    const none = await gw.post(`/v1/checkouts/${id}`, { entityId: m.entityId, amount: '1.00' });
    expect(none.status).toBe(401);
    const bad = await gw.post(
      `/v1/checkouts/${id}`,
      { entityId: m.entityId, amount: '1.00' },
      { token: 'bm9ib2R5fG5vdGhpbmc=' },
    );
    expect(bad.status).toBe(403);
    // another merchant, on its own channel: the checkout is not theirs
    expect((await update(id, { amount: '1.00' }, other)).status).toBe(404);
    // the merchant's other channel: not the checkout's
    expect((await update(id, { amount: '1.00' }, m, m.entityIds[1])).status).toBe(404);
    // another merchant's channel named with this merchant's token: 403 as anywhere
    expect((await update(id, { amount: '1.00' }, m, other.entityId)).status).toBe(403);
    expect(
      (await gw.post('/v1/checkouts/UNKNOWN.node', { entityId: m.entityId }, { token: m.token })).status,
    ).toBe(404);
    expect((await session(id)).body.amount).toBe('92.00');
  });
});
