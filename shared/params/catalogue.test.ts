/**
 * The catalogue against the spec's parameter tables, driven through the public entry point
 * `parseRequest`: a minimal valid request of each kind, plus one parameter at a time. A refused
 * value must give exactly one parameter error, named as the client sent the parameter.
 */
import { describe, expect, it } from 'vitest';
import { PAN } from '../../server/test-kit/fixtures/cards';
import { chargeback } from './catalogue/lifecycle';
import { maskValue, type ParameterError } from './errors';
import { checkFormat } from './formats';
import { parseRequest, type RequestKind } from './requests';

type Params = Readonly<Record<string, string>>;

/** A form body, percent-encoded as a browser or HTTP client would. */
const form = (params: Params): string => new URLSearchParams(params).toString();

function errorsOf(kind: RequestKind, body: string): ParameterError[] {
  const result = parseRequest(kind, body);
  return result.ok ? [] : result.errors;
}

const namesOf = (kind: RequestKind, params: Params): string[] =>
  errorsOf(kind, form(params)).map((e) => e.name);

/** The minimal valid card payment every row starts from. */
const CARD_PAYMENT: Params = {
  amount: '92.00',
  currency: 'EUR',
  paymentBrand: 'VISA',
  paymentType: 'DB',
  'card.number': PAN,
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
};

/** A customer field needs givenName and surname beside it. */
const WITH_CUSTOMER: Params = { ...CARD_PAYMENT, 'customer.givenName': 'Jane', 'customer.surname': 'Jones' };

const SEPA: Params = {
  amount: '92.00',
  currency: 'EUR',
  paymentBrand: 'DIRECTDEBIT_SEPA',
  paymentType: 'DB',
  'bankAccount.holder': 'Jane Jones',
};

const SCHEDULE: Params = {
  registrationId: '8a82944a4cc25ebf014cc2c782423202',
  amount: '92.00',
  currency: 'EUR',
  paymentType: 'DB',
};

const CHECKOUT: Params = { amount: '92.00', currency: 'EUR', paymentType: 'DB' };

describe('the base requests are valid', () => {
  it.each<[RequestKind, Params]>([
    ['payment', CARD_PAYMENT],
    ['payment', WITH_CUSTOMER],
    ['payment', { ...SEPA, 'bankAccount.iban': 'DE89370400440532013000', 'bankAccount.bic': 'COBADEFFXXX' }],
    ['schedule', { ...SCHEDULE, 'job.expression': '0 0 12 1 * ?' }],
    ['checkout', CHECKOUT],
  ])('%s %j', (kind, params) => {
    expect(errorsOf(kind, form(params))).toEqual([]);
  });
});

interface Row {
  readonly name: string;
  readonly kind?: RequestKind;
  /** The request the parameter is added to (or, when it is already there, replaced in). */
  readonly base?: Params;
  readonly ok: readonly string[];
  readonly bad: readonly string[];
}

const ROWS: readonly Row[] = [
  // Basic payment.
  {
    name: 'amount',
    ok: ['100', '10', '00.01', '12.50', '92.00'],
    bad: ['12.5', '92.0', '-1.00', '1,00', '12345678901'],
  },
  { name: 'currency', ok: ['EUR', 'USD', 'JPY'], bad: ['eur', 'EURO', 'XYZ'] },
  { name: 'paymentBrand', ok: ['VISA'], bad: ['VISA ELECTRON', 'V-I-S-A', 'X'.repeat(33)] },
  { name: 'paymentType', ok: ['PA', 'DB', 'CD', 'PA.CP'], bad: ['db', 'D', 'XX', 'CP'] },
  { name: 'merchantTransactionId', ok: ['order-12345', 'x'.repeat(255)], bad: ['1234567', 'x'.repeat(256)] },
  { name: 'numberOfCaptures', ok: ['1', '10', '98'], bad: ['0', '99', '1.5', '01', 'two'] },
  { name: 'createRegistration', ok: ['true', 'false', '1', '0'], bad: ['yes', 'TRUE', '2'] },
  { name: 'overrideHolder', ok: ['true', 'false'], bad: ['1', 'yes'] },
  { name: 'integrity', ok: ['true', 'false'], bad: ['True'] },
  { name: 'testMode', ok: ['EXTERNAL', 'INTERNAL'], bad: ['internal', 'LIVE', 'EXTERNAL '] },
  { name: 'transactionProcessingCode', ok: ['PURCHASE', 'FUNDING', 'PAYMENT'], bad: ['purchase', 'REFUND'] },
  {
    name: 'referenceUuid',
    ok: ['8a8294174b7ecb28014b9699220015ca', '8A8294174B7ECB28014B9699220015CA'],
    bad: ['8a8294174b7ecb28014b9699220015c', '8a829417-4b7e-cb28-014b-9699220015ca', 'x'.repeat(33)],
  },
  {
    name: 'entityId',
    ok: ['8a8294174b7ecb28014b9699220015cc'],
    bad: ['8A8294174B7ECB28014B9699220015CC', '8a8294174b7ecb28014b9699220015c', 'g'.repeat(32)],
  },
  // Card account.
  {
    name: 'card.number',
    ok: [PAN, '12345678', '1'.repeat(32)],
    bad: ['1234567', '4200 0000 0000 0000', 'x'],
  },
  { name: 'card.holder', ok: ['Jane Jones', 'Zoë Müller'], bad: ['Jo', 'Jane 2'] },
  { name: 'card.expiryMonth', ok: ['01', '12'], bad: ['1', '13', '00'] },
  { name: 'card.expiryYear', ok: ['2034', '1999'], bad: ['34', '2134', '1899'] },
  { name: 'card.cvv', ok: ['123', '1234'], bad: ['12', '12345', '12a'] },
  { name: 'card.numberType', ok: ['PAN', 'DPAN'], bad: ['pan', 'FPAN'] },
  // Bank account (added to a SEPA payment that already has the other of number/iban and bankCode/bic).
  {
    name: 'bankAccount.iban',
    base: { ...SEPA, 'bankAccount.bic': 'COBADEFFXXX' },
    ok: ['DE89370400440532013000', 'GB29NWBK60161331926819', 'NL91ABNA0417164300'],
    bad: [
      'DE8937040044',
      'D989370400440532013000',
      'DEAB370400440532013000',
      'DE89 3704 0044 0532 0130 00',
      `DE89${'1'.repeat(28)}`,
    ],
  },
  {
    name: 'bankAccount.bic',
    base: { ...SEPA, 'bankAccount.iban': 'DE89370400440532013000' },
    ok: ['COBADEFF', 'COBADEFFXXX'],
    bad: ['COBADEF', 'COBADEFFXX', 'COBADEFF-XX', 'COBADEFFXXXX'],
  },
  // Customer.
  {
    name: 'customer.phone',
    base: WITH_CUSTOMER,
    // national formats and the punctuation the family's platform takes (dsl.ts PHONE: decisions,
    // "Fidelity to the family"); no digit, letters or over the length still are not phones
    ok: [
      '+49 (0)30/123-45.6',
      '0301234567',
      '+49 30 1234567',
      '(030) 123',
      '(555) 555-5555',
      '(?!?)555-5555',
    ],
    bad: ['phone', '(?!?)-.', `+${'1'.repeat(25)}`, '+49 30 123x'],
  },
  {
    name: 'customer.mobile',
    base: WITH_CUSTOMER,
    ok: ['+49 170 1234567'],
    bad: ['mobile', `+${'1'.repeat(25)}`],
  },
  {
    name: 'customer.email',
    base: WITH_CUSTOMER,
    ok: ['jane@example.com', 'j.doe+shop@mail.example.co.uk'],
    bad: ['jane@example', 'jane.example.com', 'a@b.c', 'jane doe@example.com'],
  },
  { name: 'customer.language', base: WITH_CUSTOMER, ok: ['DE', 'EN'], bad: ['de', 'DEU', 'D', '1A'] },
  { name: 'customer.birthDate', base: WITH_CUSTOMER, ok: ['1980-02-29'], bad: ['1981-02-29', '1880-01-01'] },
  {
    name: 'customer.identificationDocId',
    base: { ...WITH_CUSTOMER, 'customer.identificationDocType': 'PASSPORT' },
    ok: ['C01X00T47', 'x'.repeat(64)],
    bad: ['1234567', 'x'.repeat(65)],
  },
  // Merchant billing, recipient.
  {
    name: 'merchant.billing.mobile',
    ok: ['12345', '+49 170 1234567'],
    bad: ['1234', '+49a', 'x12345', `+${'1'.repeat(25)}`],
  },
  {
    name: 'recipient.phone',
    ok: ['+1234567', '+44 20 7946 0958', '0049 (30) 123.456-7', '+49/30/1234567', '(?!?)555-5555'],
    bad: ['+123456', `1${'2'.repeat(26)}`, 'phone'],
  },
  // Billing and shipping address.
  {
    name: 'billing.state',
    // decisions, "Addresses": spaces and hyphens as real shops send them
    ok: ['BY', 'NRW', 'N.R.W.', 'Bayern2', 'Île', 'New York', 'Île-de-France'],
    bad: ['New_York', ' NY', 'x'.repeat(51)],
  },
  {
    name: 'billing.postcode',
    ok: ['10115', 'SW1A1AA', '1', 'SW1A 1AA', '10115-1234'],
    bad: ['SW1A_1AA', '10115-', 'x'.repeat(17)],
  },
  { name: 'billing.country', ok: ['DE', 'GB'], bad: ['de', 'DEU', 'XX'] },
  {
    name: 'shipping.method',
    ok: ['GROUND', 'PUDO', 'NEXT_DAY_OVERNIGHT', 'CARRIER_DESIGNATED_BY_CUSTOMER', 'TWO_DAY_SERVICE'],
    bad: ['ground', 'DRONE', 'NEXT DAY'],
  },
  { name: 'shipping.cost', ok: ['4.95', '0.00'], bad: ['4.9', '5'] },
  { name: 'shipping.city', ok: ['Berlin', 'Frankfurt am Main'], bad: ['10115'] },
  // Cart.
  {
    name: 'cart.items[0].quantity',
    ok: ['1', '2.5', '0.125', '123456789012.123'],
    bad: ['1234567890123', '1.2345', '-1', '1,5', 'one'],
  },
  {
    name: 'cart.items[0].tax',
    ok: ['0', '19', '19.5', '7.25', '100', '100.00'],
    bad: ['100.01', '101', '19.123', '-1', '19%'],
  },
  { name: 'cart.items[0].itemNumber', ok: ['1', '999'], bad: ['0', '1000'] },
  { name: 'cart.items[0].productUrl', ok: ['https://shop.example/p/1'], bad: ['/p/1'] },
  // 3-D Secure.
  { name: 'threeDSecure.eci', ok: ['01', '05', '08'], bad: ['00', '09', '5', '005'] },
  {
    name: 'threeDSecure.version',
    ok: ['2.2.0', '2.1.0', '1.0.2'],
    bad: ['3.0.0', '2.2', '2.10.0', 'v2.2.0'],
  },
  { name: 'threeDSecure.challengeIndicator', ok: ['01', '04', '09'], bad: ['00', '10', '4'] },
  { name: 'threeDSecure.exemptionFlag', ok: ['01', '04'], bad: ['05', '00'] },
  { name: 'threeDSecure.channel', ok: ['01', '1', '99'], bad: ['00', '0', '100', 'ab'] },
  { name: 'threeDSecure.authType', ok: ['01', '04'], bad: ['05'] },
  { name: 'threeDSecure.schemeData[CB-USECASE]', ok: ['01', '99'], bad: ['1', '123', 'AB'] },
  {
    name: 'threeDSecure.schemeData[CB-ITEMSNB]',
    base: { ...CARD_PAYMENT, 'threeDSecure.schemeData[CB-USECASE]': '01' },
    ok: ['02'],
    bad: ['2'],
  },
  // Risk.
  { name: 'risk.orderTimestamp', ok: ['2024-01-31 23:59:59'], bad: ['2024-01-31 24:00:00', '2024-01-31'] },
  // Scheduling, on a schedule request.
  ...(
    [
      ['job.second', ['0', '59', '*/15', '0,30'], ['60', '?']],
      ['job.minute', ['0', '30', '59'], ['60', '-1', 'x']],
      ['job.hour', ['0', '23', '9-17', '*/2'], ['24', 'L']],
      ['job.dayOfMonth', ['1', '31', 'L', 'LW', '15W', '?'], ['0', '32', 'W']],
      ['job.month', ['1', '12', '*/3', '1-6'], ['0', '13']],
      ['job.dayOfWeek', ['1', '7', 'MON-FRI', 'MON#2', '6L', '?'], ['0', '8', 'MON#6']],
      ['job.year', ['2024', '*', '2024-2030', '2024,2026'], ['1969', '2100']],
      ['job.expression', ['0 0 12 * * ?', '0 15 10 ? * MON-FRI 2030'], ['0 0 12 * *', '0 0 24 * * ?']],
      ['job.startDate', ['2024-01-01 00:00:00'], ['2024-01-01', '2024-01-01 25:00:00']],
      ['job.noticeUnit', ['DAY', 'MONTH'], ['DAYS']],
      ['job.noticeNumber', ['1', '9'.repeat(16)], ['9'.repeat(17), '-1']],
      ['job.noticeCallable', ['ANYTIME', 'DURATION_END'], ['NEVER']],
      ['job.name', ['monthly', 'x'.repeat(64)], ['x'.repeat(65)]],
    ] as const
  ).map(([name, ok, bad]): Row => ({ name, kind: 'schedule', base: SCHEDULE, ok: [...ok], bad: [...bad] })),
  { name: 'registrationId', kind: 'schedule', base: { ...SCHEDULE, 'job.hour': '0' }, ok: [], bad: ['abc'] },
  // Checkout.
  {
    name: 'overridePaymentType[VISA]',
    kind: 'checkout',
    base: CHECKOUT,
    ok: ['PA', 'DB'],
    bad: ['P', 'pa', 'PA.CP'],
  },
  {
    name: 'overridePaymentType[DIRECTDEBIT_SEPA]',
    kind: 'checkout',
    base: CHECKOUT,
    ok: ['DB'],
    bad: ['DBX'],
  },
  {
    name: 'shopperResultUrl',
    kind: 'checkout',
    base: CHECKOUT,
    ok: ['https://shop.example/done'],
    bad: ['/done'],
  },
];

describe('parameter formats through parseRequest (one parameter at a time)', () => {
  describe.each(ROWS)('$name', ({ name, kind = 'payment', base = CARD_PAYMENT, ok, bad }) => {
    if (ok.length > 0) {
      it.each(ok)('accepts %j', (value) => {
        expect(errorsOf(kind, form({ ...base, [name]: value }))).toEqual([]);
      });
    }
    it.each(bad)('refuses %j with one error named after the parameter', (value) => {
      const errors = errorsOf(kind, form({ ...base, [name]: value }));
      expect(errors.map((e) => e.name)).toEqual([name]);
      expect(errors[0]!.message).toMatch(/^must be /);
    });
  });
});

describe('map keys: customParameters[name], merchant.data[key], risk.parameters[name]', () => {
  const GOOD_KEYS = ['abc', 'SHOPPER_x', 'my.param_1', 'X'.repeat(64), '123'];
  const BAD_KEYS = ['ab', 'a-b-c', 'my param', 'X'.repeat(65), 'ä12', 'a/b/c'];

  describe.each(['customParameters', 'merchant.data', 'risk.parameters'])('%s', (map) => {
    it.each(GOOD_KEYS)('accepts the key %j', (key) => {
      expect(namesOf('payment', { ...CARD_PAYMENT, [`${map}[${key}]`]: 'value' })).toEqual([]);
    });

    it.each(BAD_KEYS)('refuses the key %j, naming the parameter', (key) => {
      expect(namesOf('payment', { ...CARD_PAYMENT, [`${map}[${key}]`]: 'value' })).toEqual([
        `${map}[${key}]`,
      ]);
    });

    it('accepts a value up to 2048 characters and refuses a longer one', () => {
      expect(namesOf('payment', { ...CARD_PAYMENT, [`${map}[abc]`]: 'v'.repeat(2048) })).toEqual([]);
      expect(namesOf('payment', { ...CARD_PAYMENT, [`${map}[abc]`]: 'v'.repeat(2049) })).toEqual([
        `${map}[abc]`,
      ]);
    });
  });

  it('refuses an unknown threeDSecure.schemeData key, naming it', () => {
    const names = namesOf('payment', {
      ...CARD_PAYMENT,
      'threeDSecure.schemeData[CB-USECASE]': '01',
      'threeDSecure.schemeData[CB-COLOUR]': '01',
    });
    expect(names).toEqual(['threeDSecure.schemeData[CB-COLOUR]']);
  });

  it('refuses an overridePaymentType key that is not a brand code, naming it', () => {
    expect(namesOf('checkout', { ...CHECKOUT, 'overridePaymentType[VI-SA]': 'PA' })).toEqual([
      'overridePaymentType[VI-SA]',
    ]);
  });
});

describe('chargebackResultCode (in no request kind yet: checked on its leaf)', () => {
  const { format } = chargeback.fields.chargebackResultCode;

  it.each(['000.100.200', '000.100.201', '000.100.299'])('accepts %j', (value) => {
    expect(checkFormat(format, value)).toBeUndefined();
  });

  it.each(['000.100.300', '000.100.2', '000.100.2000', '000.100.20a', '000.100.110', '000100201'])(
    'refuses %j',
    (value) => {
      expect(checkFormat(format, value)).toMatch(/^must be /);
    },
  );
});

describe('all errors are reported at once', () => {
  it('a body with five independent faults gets five errors, one per parameter', () => {
    const body = form({
      ...CARD_PAYMENT,
      amount: '12.5',
      currency: 'eur',
      'card.expiryMonth': '13',
      'billing.country': 'XX',
      'card.numbr': 'x',
    });
    const result = parseRequest('payment', body);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(400);
    expect(result.errors.map((e) => e.name).sort()).toEqual(
      ['amount', 'billing.country', 'card.expiryMonth', 'card.numbr', 'currency'].sort(),
    );
    for (const e of result.errors) expect(e.message).not.toBe('');
  });

  it('format faults, rule faults and unknown names come together', () => {
    const names = namesOf('payment', {
      ...CARD_PAYMENT,
      'card.cvv': '12',
      'customer.givenName': 'Jane',
      'billing.houseNumber2': 'a',
      'forex.amount': '1.00',
      colour: 'red',
    });
    expect(names.sort()).toEqual(
      ['billing.houseNumber1', 'card.cvv', 'colour', 'customer.surname', 'forex.currency'].sort(),
    );
  });

  it('a decoding fault does not hide the faults of the other parameters', () => {
    const body = `${form({ ...CARD_PAYMENT, currency: 'eur' })}&amount=93.00`;
    expect(errorsOf('payment', body).map((e) => e.name)).toEqual(['amount', 'currency']);
  });
});

describe('masking: card numbers and security codes never appear in errors', () => {
  const OTHER_PAN = '4111111111111111';

  const cases: [string, RequestKind, string, readonly string[]][] = [
    ['a card number with a letter', 'payment', form({ ...CARD_PAYMENT, 'card.number': `${PAN}X` }), [PAN]],
    [
      'a card number with spaces',
      'payment',
      form({ ...CARD_PAYMENT, 'card.number': '4200 0000 0000 0000' }),
      [PAN, '4200 0000 0000 0000'],
    ],
    [
      'a card number too long',
      'payment',
      form({ ...CARD_PAYMENT, 'card.number': '4'.repeat(33) }),
      ['4'.repeat(33)],
    ],
    [
      'a card number repeated with a different value',
      'payment',
      `${form(CARD_PAYMENT)}&card.number=${OTHER_PAN}`,
      [PAN, OTHER_PAN],
    ],
    ['a bad security code', 'payment', form({ ...CARD_PAYMENT, 'card.cvv': '98765' }), ['98765']],
    ['a security code with a letter', 'payment', form({ ...CARD_PAYMENT, 'card.cvv': '98x' }), ['98x']],
    [
      'a security code repeated with a different value',
      'payment',
      `${form(CARD_PAYMENT)}&card.cvv=987`,
      ['987'],
    ],
    [
      'a card number under an unknown name',
      'payment',
      form({ ...CARD_PAYMENT, 'card.numbr': OTHER_PAN }),
      [OTHER_PAN],
    ],
    [
      'a card number under an unknown top-level name',
      'payment',
      form({ ...CARD_PAYMENT, pan: OTHER_PAN }),
      [OTHER_PAN],
    ],
    [
      'a card number with spaces under an unknown name',
      'payment',
      form({ ...CARD_PAYMENT, cardnumber: '4111 1111 1111 1111' }),
      [OTHER_PAN, '4111 1111 1111 1111'],
    ],
    [
      'a card number as the value of a refused custom parameter key',
      'payment',
      form({ ...CARD_PAYMENT, 'customParameters[x]': OTHER_PAN }),
      [OTHER_PAN],
    ],
    [
      'a card number where a group is expected',
      'payment',
      form({ ...CARD_PAYMENT, customer: OTHER_PAN }),
      [OTHER_PAN],
    ],
    ['a security code under a malformed name', 'payment', `${form(CARD_PAYMENT)}&.card.cvv=987`, ['987']],
    ['a security code under a mistyped case', 'payment', `${form(CARD_PAYMENT)}&CARD.CVV=987`, ['987']],
    ['a security code under stray brackets', 'payment', `${form(CARD_PAYMENT)}&card[cvv=987`, ['987']],
    [
      'a card number sent with a stored registration (refused there)',
      'registrationPayment',
      form({ amount: '1.00', currency: 'EUR', paymentType: 'DB', 'card.number': OTHER_PAN }),
      [OTHER_PAN],
    ],
  ];

  it.each(cases)('%s', (_label, kind, body, secrets) => {
    const result = parseRequest(kind, body);
    expect(result.ok).toBe(false);
    const json = JSON.stringify(result);
    for (const secret of secrets) expect(json).not.toContain(secret);
  });

  it('keeps the first six and last four digits of a masked card number', () => {
    const errors = errorsOf('payment', `${form(CARD_PAYMENT)}&card.number=${OTHER_PAN}`);
    expect(errors).toEqual([expect.objectContaining({ name: 'card.number', value: '411111******1111' })]);
  });

  it('hides a security code entirely', () => {
    const errors = errorsOf('payment', form({ ...CARD_PAYMENT, 'card.cvv': '98765' }));
    expect(errors).toEqual([expect.objectContaining({ name: 'card.cvv', value: '***' })]);
  });

  it('shows other bad values as sent', () => {
    const errors = errorsOf('payment', form({ ...CARD_PAYMENT, amount: '12.5' }));
    expect(errors).toEqual([expect.objectContaining({ name: 'amount', value: '12.5' })]);
  });

  it.each([
    ['a bad IBAN', { 'bankAccount.iban': 'NL91ABNA0417164300!' }, 'NL91ABNA0417164300'],
    ['an IBAN too long', { 'bankAccount.iban': `DE89370400440532013000${'0'.repeat(20)}` }, '0532013000'],
    ['a bad account number', { 'bankAccount.number': 'KTO-99887766' }, 'KTO-99887766'],
    [
      'a bad sender account number',
      { 'sender.accountNumber': 'NL91ABNA0417164300'.repeat(2) },
      'ABNA0417164300',
    ],
    ['an IBAN under an unknown name', { 'bankAccount.ibn': 'NL91ABNA0417164300' }, 'ABNA0417164300'],
    ['an IBAN in groups under an unknown name', { 'sender.acount': 'NL91 ABNA 0417 1643 00' }, 'ABNA 0417'],
  ] as const)('masks %s', (_label, params, secret) => {
    const body = form({
      amount: '1.00',
      currency: 'EUR',
      paymentType: 'DB',
      paymentBrand: 'DIRECTDEBIT_SEPA',
      'bankAccount.holder': 'Jane Jones',
      'bankAccount.iban': 'DE89370400440532013000',
      'bankAccount.bic': 'MARKDEF1100',
      ...params,
    });
    const result = parseRequest('payment', body);
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain(secret);
  });

  it('shows an IBAN with its country, check digits and last four, another account number with its last four', () => {
    const errors = errorsOf(
      'payment',
      form({
        amount: '1.00',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: 'DIRECTDEBIT_SEPA',
        'bankAccount.holder': 'Jane Jones',
        'bankAccount.iban': 'NL91ABNA0417164300!',
        'bankAccount.number': 'KTO-99887766',
        'bankAccount.bic': 'MARKDEF1100',
      }),
    );
    expect(errors).toEqual([
      expect.objectContaining({ name: 'bankAccount.number', value: '***' }),
      expect.objectContaining({ name: 'bankAccount.iban', value: '***' }),
    ]);
  });

  it.each([
    [PAN, undefined, '420000******0000'],
    [PAN, 'pan', '420000******0000'],
    ['4200 0000 0000 0000', 'pan', '***'],
    ['123', 'secret', '***'],
    ['order 4111111111111111 paid', undefined, 'order 411111******1111 paid'],
    ['4111-1111-1111-1111', undefined, '411111******1111'],
    ['order 12345678', undefined, 'order 12345678'],
    ['12.50', undefined, '12.50'],
    ['NL91ABNA0417164300', 'account', 'NL91**********4300'],
    ['nl91abna0417164300', 'account', 'NL91**********4300'],
    ['KTO99887766', 'account', '*******7766'],
    ['1234567', 'account', '*******'],
    ['KTO-99887766', 'account', '***'],
    ['paid from NL91ABNA0417164300', undefined, 'paid from NL91**********4300'],
    ['paid from NL91 ABNA 0417 1643 00', undefined, 'paid from NL91**********4300'],
    ['AB12CDEFGHIJKLMNOP', undefined, 'AB12CDEFGHIJKLMNOP'],
  ] as const)('maskValue(%j, %s) = %j', (value, mask, shown) => {
    expect(maskValue(value, mask)).toBe(shown);
  });
});
