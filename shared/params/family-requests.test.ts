/**
 * Requests the family's real platform accepts (decisions, "Fidelity to the family"), sent as they
 * are through the real app: POST /v1/payments on the demo channel, test mode INTERNAL. Shipping
 * names, the phone formats real shops send, customer fields alone, alpha-3 countries of senders
 * and recipients, token numbers of any card length, and a cart line number with leading zeros.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parameterErrorNames as names } from '../../server/test-kit/answers';
import { VISA_CARD } from '../../server/test-kit/fixtures/cards';
import { type TestGateway, testGateway, WORKERS_STOPPED } from '../../server/test-kit/gateway';

describe('requests of the family the gateway accepts (HTTP, demo channel)', () => {
  let gw: TestGateway;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    gw = await testGateway(WORKERS_STOPPED);
    ({ entityId, accessToken: token } = gw.demo!);
  });
  afterAll(() => gw?.cleanup());

  /** A Visa debit of 12.00 EUR with the given extra parameters, as a form body. */
  const pay = (extra: string) =>
    gw.post(
      '/v1/payments',
      `${new URLSearchParams({ entityId, amount: '12.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD })}&${extra}`,
      { token },
    );

  const SHIPPING_ADDRESS =
    'shipping.street1=Leopoldstrasse%201&shipping.city=Munich&shipping.postcode=80802&shipping.country=DE';

  it('takes shipping.givenName and shipping.surname with a shipping address, and echoes them', async () => {
    const res = await pay(`shipping.givenName=Muton&shipping.surname=DeMicelis&${SHIPPING_ADDRESS}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
    expect(res.body.shipping).toMatchObject({ givenName: 'Muton', surname: 'DeMicelis', city: 'Munich' });
  });

  it('takes the shipping names in merchant.shipping too, AN up to 50', async () => {
    const ok = await pay('merchant.shipping.givenName=Muton&merchant.shipping.surname=DeMicelis');
    expect(ok.status, ok.text).toBe(200);
    const long = await pay(`shipping.givenName=${'M'.repeat(51)}&shipping.surname=DeMicelis`);
    expect(long.status).toBe(400);
    expect(names(long)).toEqual(['shipping.givenName']);
  });

  it('takes the national phone formats real shops send', async () => {
    const res = await pay(
      'customer.givenName=Jane&customer.surname=Jones&customer.phone=(555)555-5555&customer.mobile=(555)%20555-5555',
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.customer).toMatchObject({ phone: '(555)555-5555', mobile: '(555) 555-5555' });
    const repeats = await pay(
      'shipping.phone=(555)%20555-5555&shipping.mobile=(555)555-5555&merchant.billing.mobile=(555)%20555-5555',
    );
    expect(repeats.status, repeats.text).toBe(200);
    // still a phone number: letters are not
    const letters = await pay('customer.givenName=Jane&customer.surname=Jones&customer.phone=(555)CALL-ME');
    expect(names(letters)).toEqual(['customer.phone']);
  });

  /** `name=value` pairs as a form body, each value escaped. */
  const form = (fields: Record<string, string>): string =>
    Object.entries(fields)
      .map(([n, v]) => `${n}=${encodeURIComponent(v)}`)
      .join('&');

  it('takes the phone values activemerchant’s remote test sends, which the family’s platform accepted', async () => {
    const res = await pay(
      form({
        'customer.givenName': 'Jane',
        'customer.surname': 'Jones',
        'customer.phone': '(?!?)555-5555',
        'customer.mobile': '(?!?)234-23423',
      }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
    expect(res.body.customer).toMatchObject({ phone: '(?!?)555-5555', mobile: '(?!?)234-23423' });
    // the same rule on every phone field: the repeats, the recipient's
    const repeats = await pay(
      form({
        'shipping.phone': '(?!?)555-5555',
        'shipping.mobile': '(?!?)234-23423',
        'merchant.billing.mobile': '(?!?)234-23423',
        'recipient.phone': '(?!?)555-5555',
      }),
    );
    expect(repeats.status, repeats.text).toBe(200);
  });

  it('still refuses what cannot be a phone: no digit at all, or longer than the field', async () => {
    const res = await pay(
      form({
        'customer.givenName': 'Jane',
        'customer.surname': 'Jones',
        'customer.phone': '(?!?)-.',
        'customer.mobile': `+${'5'.repeat(25)}`,
        'shipping.phone': '12',
        'recipient.phone': '(?!?)',
      }),
    );
    expect(res.status).toBe(400);
    expect(names(res)).toEqual(['customer.mobile', 'customer.phone', 'recipient.phone', 'shipping.phone']);
  });

  it.each([['customer.ip=203.0.113.7'], ['customer.email=jane@example.com']])(
    'takes %s alone, without the customer’s name',
    async (field) => {
      const res = await pay(field);
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
    },
  );

  it('still takes customer.givenName only with customer.surname', async () => {
    expect(names(await pay('customer.givenName=Jane'))).toEqual(['customer.surname']);
    expect(names(await pay('customer.surname=Jones'))).toEqual(['customer.givenName']);
  });

  it('takes ISO 3166-1 alpha-3 countries for sender, recipient and their birth countries', async () => {
    const res = await pay(
      'sender.country=DEU&sender.birthCountry=AUT&recipient.country=USA&recipient.birthCountry=GBR',
    );
    expect(res.status, res.text).toBe(200);
    const wrong = await pay(
      'sender.country=DE&sender.birthCountry=XXX&recipient.country=U1A&recipient.birthCountry=gb',
    );
    expect(wrong.status).toBe(400);
    expect(names(wrong)).toEqual([
      'recipient.birthCountry',
      'recipient.country',
      'sender.birthCountry',
      'sender.country',
    ]);
  });

  /** A debit with a network token of the given number, nothing else of an instrument. */
  const payWithToken = (number: string) =>
    gw.post(
      '/v1/payments',
      {
        entityId,
        amount: '12.00',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: 'VISA',
        'tokenAccount.number': number,
        'tokenAccount.type': 'EXTERNAL',
        'tokenAccount.expiryMonth': '05',
        'tokenAccount.expiryYear': '2034',
      },
      { token },
    );

  // Luhn-valid numbers in Visa's range, of lengths no Visa card has (13, 16 and 19)
  it.each(['411111111117', '41111111111114', '411111111111116', '41111111111111113', '411111111111111118'])(
    'takes the token number %s (12 to 19 digits, whatever the brand’s card lengths)',
    async (number) => {
      const res = await payWithToken(number);
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
    },
  );

  it.each(['42000000000', '42000000000000000000', '4200x0000000'])(
    'refuses the token number %s',
    async (number) => {
      expect(names(await payWithToken(number))).toEqual(['tokenAccount.number']);
    },
  );

  it('takes cart.items[0].itemNumber=001 as line 1', async () => {
    const res = await pay('cart.items[0].name=Socks&cart.items[0].itemNumber=001&cart.items[0].quantity=1');
    expect(res.status, res.text).toBe(200);
    const zero = await pay('cart.items[0].name=Socks&cart.items[0].itemNumber=000');
    expect(names(zero)).toEqual(['cart.items[0].itemNumber']);
  });
});
