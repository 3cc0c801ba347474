/**
 * One-click payment with a stored card, attacked through the public checkout routes (issue 30,
 * hole 6): the widget's session, read without credentials, shows a stored card's brand and last
 * four digits only (never its holder or expiry), and on a channel that asks for the CVV of stored
 * cards (`registrationsRequireCvv`, the channel's form of the family's `registrations.requireCvv`)
 * a one-click submission without it is refused naming `card.cvv`, nothing charged. Brands whose
 * cards may have no CVV (the catalogue's `cvvRequired: false`, MAESTRO) are not asked for one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parameterErrorNames } from '../../test-kit/answers';
import { VISA_CARD_WITHOUT_CVV } from '../../test-kit/fixtures/cards';
import { ADMIN_TOKEN } from '../../test-kit/fixtures/tokens';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';

const AMEX = { ...VISA_CARD_WITHOUT_CVV, paymentBrand: 'AMEX', 'card.number': '377777777777770' };
const MAESTRO = { ...VISA_CARD_WITHOUT_CVV, paymentBrand: 'MAESTRO', 'card.number': '6759649826438453' };

describe('one-click with a stored card over HTTP', () => {
  let gw: TestGateway;
  /** A channel as today: stored cards pay without a CVV. */
  let plain: TestMerchant;
  /** A channel that asks for the CVV of a stored card. */
  let asking: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
    plain = await gw.addMerchant({ channels: 1 });
    asking = await gw.addMerchant({ channels: 1, settings: { registrationsRequireCvv: true } });
  });
  afterAll(() => gw.cleanup());

  const register = async (who: TestMerchant, card: Record<string, string> = VISA_CARD_WITHOUT_CVV) => {
    const res = await gw.post('/v1/registrations', { entityId: who.entityId, ...card }, { token: who.token });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };
  const checkout = async (who: TestMerchant, ...registrationIds: string[]) => {
    const res = await gw.post(
      '/v1/checkouts',
      {
        entityId: who.entityId,
        amount: '12.50',
        currency: 'EUR',
        paymentType: 'DB',
        ...Object.fromEntries(registrationIds.map((id, i) => [`registrations[${i}].id`, id])),
      },
      { token: who.token },
    );
    expect(res.status).toBe(200);
    return res.body.id as string;
  };
  /** The widget's reads and posts: no credentials. */
  const session = (id: string) => gw.get(`/v1/checkouts/${id}/session`);
  const submit = (id: string, params: Record<string, string>) =>
    gw.post(`/v1/checkouts/${id}/payment`, params);

  it("shows a stored card's brand and last four digits only, never its holder or expiry", async () => {
    const registrationId = await register(plain);
    const id = await checkout(plain, registrationId);
    const view = await session(id);
    expect(view.status).toBe(200);
    expect(view.body.registrations).toEqual([
      { id: registrationId, paymentBrand: 'VISA', card: { last4Digits: '0000' } },
    ]);
    expect(view.text).not.toContain('Jane Jones');
    expect(view.text).not.toContain('2034');
    expect(view.text).not.toContain('420000');
  });

  it('on a channel that asks for it, a stored card without its CVV is refused naming card.cvv; with it, it pays', async () => {
    const registrationId = await register(asking);
    const id = await checkout(asking, registrationId);
    const view = await session(id);
    expect(view.body.registrations).toEqual([
      { id: registrationId, paymentBrand: 'VISA', card: { last4Digits: '0000' }, cvvRequired: true },
    ]);

    const without = await submit(id, { registrationId });
    expect(without.status).toBe(400);
    expect(without.body.result.code).toBe('200.300.404');
    expect(without.body.result.parameterErrors).toEqual([
      { name: 'card.cvv', value: null, message: expect.stringContaining('required') },
    ]);
    const empty = await submit(id, { registrationId, 'card.cvv': '' });
    expect(empty.status).toBe(400);
    expect(parameterErrorNames(empty)).toEqual(['card.cvv']);
    expect(await gw.paymentIds(asking.merchantId)).toEqual([]);

    const paid = await submit(id, { registrationId, 'card.cvv': '123' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ result: { code: '000.100.110' }, registrationId, amount: '12.50' });
    expect(paid.text).not.toContain('"123"');
  });

  it("asks for the brand's own CVV (AMEX: 4 digits) and none of a brand whose cards may have none (MAESTRO)", async () => {
    const amex = await register(asking, AMEX);
    const maestro = await register(asking, MAESTRO);
    const id = await checkout(asking, amex, maestro);
    const view = await session(id);
    expect(view.body.registrations).toEqual([
      { id: amex, paymentBrand: 'AMEX', card: { last4Digits: '7770' }, cvvRequired: true },
      { id: maestro, paymentBrand: 'MAESTRO', card: { last4Digits: '8453' } },
    ]);

    const short = await submit(id, { registrationId: amex, 'card.cvv': '123' });
    expect(short.status).toBe(400);
    expect(short.body.result.parameterErrors).toEqual([
      { name: 'card.cvv', value: '***', message: expect.stringContaining('4 digits') },
    ]);
    expect(short.text).not.toContain('"123"');
    expect((await submit(id, { registrationId: amex })).status).toBe(400);
    const paid = await submit(id, { registrationId: maestro });
    expect(paid.status).toBe(200);
    expect(paid.body.result.code).toBe('000.100.110');

    const other = await checkout(asking, amex);
    expect((await submit(other, { registrationId: amex, 'card.cvv': '1234' })).body.result.code).toBe(
      '000.100.110',
    );
  });

  it('on a channel as today, a stored card pays without a CVV (the family default)', async () => {
    const registrationId = await register(plain);
    const id = await checkout(plain, registrationId);
    const paid = await submit(id, { registrationId });
    expect(paid.status).toBe(200);
    expect(paid.body.result.code).toBe('000.100.110');
  });

  it('the admin API sets it on a channel (which then asks), turns it off, and refuses what is not true or false', async () => {
    const admin = (method: string, path: string, body?: object) =>
      gw.send(method, path, body === undefined ? undefined : JSON.stringify(body), {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      });
    expect((await admin('GET', `/admin/v1/channels/${plain.entityId}`)).body.registrationsRequireCvv).toBe(
      false,
    );
    const created = await admin('POST', `/admin/v1/merchants/${plain.merchantId}/channels`, {
      name: 'Stored cards with CVV',
      registrationsRequireCvv: true,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.registrationsRequireCvv).toBe(true);
    const channel = { ...plain, entityId: created.body.entityId as string };
    const registrationId = await register(channel);
    const id = await checkout(channel, registrationId);
    expect(parameterErrorNames(await submit(id, { registrationId }))).toEqual(['card.cvv']);

    const path = `/admin/v1/channels/${channel.entityId}`;
    const bad = await admin('PATCH', path, { registrationsRequireCvv: 'yes' });
    expect(bad.status).toBe(400);
    expect(parameterErrorNames(bad)).toEqual(['registrationsRequireCvv']);
    const off = await admin('PATCH', path, { registrationsRequireCvv: false });
    expect(off.status).toBe(200);
    expect(off.body.registrationsRequireCvv).toBe(false);
    expect((await admin('GET', path)).body.registrationsRequireCvv).toBe(false);
  });
});
