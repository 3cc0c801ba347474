/**
 * The family's common brands beyond the cards (decisions, "Fidelity to the family"), through the
 * real app in test mode INTERNAL on the demo channel: each requested with the minimal data its
 * method needs answers its flow's answer (pending with a redirect, accepted at once, or pending
 * until the provider accepts it later: an invoice, server/http/routes/invoice-brands.test.ts), never
 * 600.200.100; online transfers take the optional bank hints without needing a bank account;
 * the Query API finds each by its method code; PREPAYMENT needs the merchant's bank account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parameterErrorNames as names } from '../../server/test-kit/answers';
import { IBAN } from '../../server/test-kit/fixtures/bank-accounts';
import {
  type TestGateway,
  type TestResponse,
  testGateway,
  WORKERS_STOPPED,
} from '../../server/test-kit/gateway';

const RETURN = 'https://shop.example/return';

/** The brands the family's platform knows, with their method code and how they end. */
const FAMILY: readonly (readonly [
  brand: string,
  method: string,
  answer: 'pending' | 'accepted' | 'later',
])[] = [
  ['SOFORTUEBERWEISUNG', 'OT', 'pending'],
  ['EPS', 'OT', 'pending'],
  ['GIROPAY', 'OT', 'pending'],
  ['IDEAL', 'OT', 'pending'],
  ['TRUSTLY', 'OT', 'pending'],
  ['PRZELEWY', 'OT', 'pending'],
  ['INTERAC_ONLINE', 'OT', 'pending'],
  ['EFT', 'OT', 'pending'],
  ['POLI', 'OT', 'pending'],
  ['BLIK', 'OT', 'pending'],
  ['PAYPAL', 'WA', 'pending'],
  ['ALIPAY', 'VA', 'pending'],
  ['STC_PAY', 'VA', 'accepted'],
  ['PAYSAFECARD', 'VA', 'pending'],
  ['KLARNA_INVOICE', 'IV', 'later'],
  ['KLARNA_INSTALLMENTS', 'IV', 'later'],
  ['PAYOLUTION_INVOICE', 'IV', 'later'],
  ['PAYOLUTION_INS', 'IV', 'later'],
  ['BOLETO', 'PP', 'pending'],
  // the operator's samples (PAYON-AG/servertoserver-curl): a Bradesco boleto, TrustPay's
  // virtual account, Yandex.Money's wallet
  ['BRADESCO', 'PP', 'pending'],
  ['TRUSTPAY_VA', 'VA', 'pending'],
  ['YANDEX', 'VA', 'pending'],
];

/** The minimal data each brand's method needs beyond amount and type. */
const MINIMAL: Readonly<Record<string, Record<string, string>>> = {
  // the family's widget draws STC Pay as a virtual-account form: the shopper's STC Pay id
  STC_PAY: { 'virtualAccount.accountId': '+966500000000' },
  PAYOLUTION_ELV: {
    'bankAccount.holder': 'Jane Jones',
    'bankAccount.iban': IBAN,
    'bankAccount.bic': 'COBADEFFXXX',
  },
};

describe('the family’s brands (HTTP, demo channel, test mode INTERNAL)', () => {
  let gw: TestGateway;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    gw = await testGateway(WORKERS_STOPPED);
    ({ entityId, accessToken: token } = gw.demo!);
  });
  afterAll(() => gw?.cleanup());

  const pay = (params: Record<string, string>, on = entityId) =>
    gw.post(
      '/v1/payments',
      { entityId: on, amount: '25.50', currency: 'EUR', paymentType: 'DB', ...params },
      { token },
    );

  const expectPending = (res: TestResponse) => {
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.200.000');
    expect(res.body.redirect.url).toEqual(expect.any(String));
  };

  it('SOFORTUEBERWEISUNG with bankAccount.country=AT: pending, redirected to the bank', async () => {
    const res = await pay({
      paymentBrand: 'SOFORTUEBERWEISUNG',
      'bankAccount.country': 'AT',
      shopperResultUrl: RETURN,
    });
    expectPending(res);
    // kept with the payment for the provider, and echoed as sent
    expect(res.body.bankAccount).toEqual({ country: 'AT' });
  });

  it('an online transfer takes the hints only, not a whole bank account', async () => {
    const res = await pay({
      paymentBrand: 'GIROPAY',
      'bankAccount.holder': 'Jane Jones',
      'bankAccount.bic': 'COBADEFFXXX',
      shopperResultUrl: RETURN,
    });
    expect(res.status).toBe(400);
    expect(names(res)).toEqual(['bankAccount.holder']);
  });

  it.each([
    ['EPS', { 'bankAccount.bic': 'BKAUATWW', 'bankAccount.country': 'AT' }],
    ['IDEAL', { 'bankAccount.bankName': 'ING', 'bankAccount.bic': 'INGBNL2A' }],
    ['GIROPAY', { 'bankAccount.bic': 'COBADEFFXXX', 'bankAccount.iban': IBAN }],
    ['EFT', { 'bankAccount.bankName': 'Standard Bank', 'bankAccount.country': 'ZA' }],
    ['INTERAC_ONLINE', { 'bankAccount.bankName': 'RBC Royal Bank', 'bankAccount.country': 'CA' }],
  ])('%s takes its optional bank hints: pending, redirected', async (brand, hints) => {
    expectPending(await pay({ paymentBrand: brand, ...hints, shopperResultUrl: RETURN }));
  });

  it('the bank hints are not a bank account: direct debit still needs its account', async () => {
    const res = await pay({ paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.country': 'DE' });
    expect(res.status).toBe(400);
    expect(names(res)).toEqual(['bankAccount.bankCode', 'bankAccount.holder', 'bankAccount.number']);
  });

  it('an online transfer with a malformed hint is a parameter error, not a decline', async () => {
    const res = await pay({ paymentBrand: 'EPS', 'bankAccount.bic': 'X', shopperResultUrl: RETURN });
    expect(res.status).toBe(400);
    expect(names(res)).toEqual(['bankAccount.bic']);
  });

  it.each(FAMILY)('%s (%s): its flow’s answer, never 600.200.100', async (brand, _method, answer) => {
    const res = await pay({ paymentBrand: brand, shopperResultUrl: RETURN, ...MINIMAL[brand] });
    expect(res.body.result.code).not.toBe('600.200.100');
    expect(res.body.paymentBrand).toBe(brand);
    if (answer === 'pending') expectPending(res);
    else if (answer === 'later') {
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.200.000');
      expect(res.body.redirect).toBeUndefined();
    } else {
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
    }
  });

  it('PAYOLUTION_ELV debits the bank account it is given', async () => {
    const res = await pay({ paymentBrand: 'PAYOLUTION_ELV', ...MINIMAL.PAYOLUTION_ELV });
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
  });

  it('PAYOLUTION_ELV without a bank account, as the operator’s sample: Payolution collects it', async () => {
    const res = await pay({
      paymentBrand: 'PAYOLUTION_ELV',
      'customer.givenName': 'Jane',
      'customer.surname': 'Jones',
      'customer.email': 'test@test.com',
      'billing.street1': '123 Street',
      'billing.city': 'Munich',
      'billing.postcode': 'A1 2BC',
      'billing.country': 'DE',
      shopperResultUrl: RETURN,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
    // an account that is sent is still checked whole
    const half = await pay({ paymentBrand: 'PAYOLUTION_ELV', 'bankAccount.holder': 'Jane Jones' });
    expect(res.status).toBe(200);
    expect(half.status).toBe(400);
    expect(names(half)).toEqual(['bankAccount.bankCode', 'bankAccount.number']);
  });

  it('BRADESCO shows the shopper a boleto with its reference', async () => {
    const res = await pay({ paymentBrand: 'BRADESCO', currency: 'BRL', shopperResultUrl: RETURN });
    expectPending(res);
    const session = res.body.redirect.parameters.find((p: { name: string }) => p.name === 'session').value;
    const voucher = await gw.get('/simulators/redirect', { session });
    expect(voucher.status).toBe(200);
    expect(voucher.text).toMatch(/Voucher reference<\/dt><dd>[0-9]{5}\.[0-9]{5} /);
  });

  it('a BRADESCO registration keeps the payer, as the operator’s registrationBRADESCO.sh', async () => {
    const res = await gw.post(
      '/v1/registrations',
      {
        entityId,
        paymentBrand: 'BRADESCO',
        'customer.givenName': 'Braziliano',
        'customer.surname': 'Babtiste',
        'billing.street1': 'Amazonstda',
        'billing.city': 'Brasilia',
        'billing.state': 'SP',
        'billing.postcode': '12345678',
        'billing.country': 'BR',
        'customParameters[BRADESCO_cpfsacado]': '11111111111',
      },
      { token },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
    expect(res.body.id).toEqual(expect.any(String));
    // a method that keeps nothing is still refused: nothing to charge later
    const paypal = await gw.post('/v1/registrations', { entityId, paymentBrand: 'PAYPAL' }, { token });
    expect(paypal.body.result.code).toBe('100.150.100');
  });

  it('BOLETO shows the shopper a voucher with its reference', async () => {
    const res = await pay({ paymentBrand: 'BOLETO', shopperResultUrl: RETURN });
    expectPending(res);
    const session = res.body.redirect.parameters.find((p: { name: string }) => p.name === 'session').value;
    const voucher = await gw.get('/simulators/redirect', { session });
    expect(voucher.status).toBe(200);
    expect(voucher.text).toMatch(/Voucher reference<\/dt><dd>[0-9]{5}\.[0-9]{5} [0-9]{5}\.[0-9]{6}/);
  });

  it('the Query API finds each by its method code', async () => {
    const order = 'order-family-brands';
    const ids = new Map<string, string[]>();
    for (const [brand, method] of FAMILY) {
      const res = await pay({
        paymentBrand: brand,
        shopperResultUrl: RETURN,
        merchantTransactionId: order,
        ...MINIMAL[brand],
      });
      expect(res.status, res.text).toBe(200);
      ids.set(method, [...(ids.get(method) ?? []), res.body.id]);
    }
    for (const [method, expected] of ids) {
      const res = await gw.get(
        '/v1/query',
        { entityId, merchantTransactionId: order, paymentMethods: method },
        { token },
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.payments.map((p: { id: string }) => p.id).sort(), method).toEqual(expected.sort());
    }
  });
});

describe('PREPAYMENT needs the merchant’s bank account (HTTP)', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await testGateway(WORKERS_STOPPED);
  });
  afterAll(() => gw?.cleanup());

  const prepay = (entityId: string, token: string) =>
    gw.post(
      '/v1/payments',
      { entityId, amount: '120.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'PREPAYMENT' },
      { token },
    );

  it('is refused as not configured on a channel without one: 600.200.201, nothing to pay to', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const res = await prepay(m.entityId, m.token);
    expect(res.status, res.text).toBe(400);
    expect(res.body.result.code).toBe('600.200.201');
    expect(res.body.merchant).toBeUndefined();
  });

  it('is accepted on the demo channel (npm start’s default), which has a test account', async () => {
    const res = await prepay(gw.demo!.entityId, gw.demo!.accessToken);
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
    expect(res.body.merchant.bankAccount).toMatchObject({
      number: 'DE23100000001234567890',
      bic: 'MARKDEF1100',
    });
  });

  it('is accepted on a channel with one, which the answer names', async () => {
    const m = await gw.addMerchant({
      channels: 1,
      settings: { bankAccount: { holder: 'Shop One GmbH', iban: IBAN, bic: 'COBADEFFXXX' } },
    });
    const res = await prepay(m.entityId, m.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.code).toBe('000.100.110');
    expect(res.body.merchant.bankAccount.number).toBe(IBAN);
  });
});
