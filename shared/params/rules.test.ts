/**
 * Every conditional rule of the spec (the "C" column and the Rule texts) and of the decisions,
 * tested both ways through `parseRequest`: when the rule holds the request passes, when it is
 * broken the errors name exactly the fields the client has to fix.
 */
import { describe, expect, it } from 'vitest';
import { SEPA_DIRECT_DEBIT } from '../../server/test-kit/fixtures/bank-accounts';
import { CARD_FIELDS } from '../../server/test-kit/fixtures/cards';
import { parseRequest, type RequestKind } from './requests';

type Params = Readonly<Record<string, string>>;

const form = (params: Params): string => new URLSearchParams(params).toString();

/** The names of the parameter errors, sorted: [] when the request is valid. */
function errorNames(kind: RequestKind, params: Params): string[] {
  const result = parseRequest(kind, form(params));
  return result.ok ? [] : result.errors.map((e) => e.name).sort();
}

const PAY: Params = { amount: '92.00', currency: 'EUR', paymentType: 'DB' };
const CARD_PAYMENT: Params = { ...PAY, paymentBrand: 'VISA', ...CARD_FIELDS };
const SEPA: Params = { ...PAY, ...SEPA_DIRECT_DEBIT };
const { 'bankAccount.iban': _iban, 'bankAccount.bic': _bic, ...SEPA_BARE } = SEPA;
const NAMES: Params = { 'customer.givenName': 'Jane', 'customer.surname': 'Jones' };
const ID32 = '8a82944a4cc25ebf014cc2c782423202';
const SCHEDULE: Params = { registrationId: ID32, ...PAY };
const CAVV = 'AAACBllleHchZTBWIGV4MAAAAAA=';
const DECRYPTED: Params = {
  'card.number': '4200000000000000',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'threeDSecure.verificationId': CAVV,
  'threeDSecure.eci': '05',
};

/** [what is tested, request kind, parameters, the error names expected (sorted; [] = valid)]. */
type Case = readonly [string, RequestKind, Params, readonly string[]];

function table(cases: readonly Case[]): void {
  it.each(cases)('%s', (_label, kind, params, expected) => {
    expect(errorNames(kind, params)).toEqual([...expected].sort());
  });
}

describe('bank account', () => {
  table([
    ['iban and bic: valid', 'payment', SEPA, []],
    [
      'number and bankCode instead: valid',
      'payment',
      { ...SEPA_BARE, 'bankAccount.number': '0532013000', 'bankAccount.bankCode': '37040044' },
      [],
    ],
    [
      'iban with bankCode: valid',
      'payment',
      { ...SEPA_BARE, 'bankAccount.iban': 'DE89370400440532013000', 'bankAccount.bankCode': '37040044' },
      [],
    ],
    [
      'neither number nor iban',
      'payment',
      { ...SEPA_BARE, 'bankAccount.bic': 'COBADEFFXXX' },
      ['bankAccount.number'],
    ],
    [
      'neither bankCode nor bic',
      'payment',
      { ...SEPA_BARE, 'bankAccount.iban': 'DE89370400440532013000' },
      ['bankAccount.bankCode'],
    ],
    [
      'neither of both pairs',
      'payment',
      { ...SEPA_BARE, 'bankAccount.country': 'DE' },
      ['bankAccount.bankCode', 'bankAccount.number'],
    ],
    ['holder missing in the group', 'payment', { ...SEPA, 'bankAccount.holder': '' }, ['bankAccount.holder']],
  ]);
});

// decisions, "Fidelity to the family": the names go together, nothing else needs them
describe('customer: givenName and surname together, other fields alone', () => {
  table([
    ['givenName and surname alone: valid', 'payment', { ...CARD_PAYMENT, ...NAMES }, []],
    [
      'names with e-mail: valid',
      'payment',
      { ...CARD_PAYMENT, ...NAMES, 'customer.email': 'jane@example.com' },
      [],
    ],
    ['e-mail without names: valid', 'payment', { ...CARD_PAYMENT, 'customer.email': 'jane@example.com' }, []],
    ['ip without names: valid', 'payment', { ...CARD_PAYMENT, 'customer.ip': '203.0.113.7' }, []],
    [
      'givenName and e-mail without surname',
      'payment',
      { ...CARD_PAYMENT, 'customer.givenName': 'Jane', 'customer.email': 'jane@example.com' },
      ['customer.surname'],
    ],
    [
      'surname and ip without givenName',
      'payment',
      { ...CARD_PAYMENT, 'customer.surname': 'Jones', 'customer.ip': '192.0.2.1' },
      ['customer.givenName'],
    ],
    [
      // the browser describes itself (the widget sends it for 3-D Secure), not the person
      'browser data without names: valid',
      'payment',
      { ...CARD_PAYMENT, 'customer.browser.userAgent': 'Mozilla/5.0' },
      [],
    ],
    [
      'browser data with an e-mail: valid',
      'payment',
      { ...CARD_PAYMENT, 'customer.browser.userAgent': 'Mozilla/5.0', 'customer.email': 'jane@example.com' },
      [],
    ],
    [
      'shipping.customer.e-mail alone: valid (all optional)',
      'payment',
      { ...CARD_PAYMENT, 'shipping.customer.email': 'john@example.com' },
      [],
    ],
    [
      'shipping.customer.phone alone: valid',
      'payment',
      { ...CARD_PAYMENT, 'shipping.customer.phone': '+49 30 1234567' },
      [],
    ],
    [
      // half a name is half a name in every repeat of the group
      'shipping.customer.givenName alone: the surname too',
      'payment',
      { ...CARD_PAYMENT, 'shipping.customer.givenName': 'John' },
      ['shipping.customer.surname'],
    ],
    [
      'customer.givenName alone: the surname too',
      'payment',
      { ...CARD_PAYMENT, 'customer.givenName': 'Jane' },
      ['customer.surname'],
    ],
    [
      'customer.surname alone: the given name too',
      'checkout',
      { amount: '92.00', currency: 'EUR', paymentType: 'DB', 'customer.surname': 'Jones' },
      ['customer.givenName'],
    ],
    [
      'registration: givenName without surname',
      'registration',
      {
        paymentBrand: 'VISA',
        ...CARD_FIELDS,
        'customer.givenName': 'Jane',
        'customer.email': 'jane@example.com',
      },
      ['customer.surname'],
    ],
  ]);
});

describe('taxAmount: a part of the amount', () => {
  table([
    ['taxAmount below amount: valid', 'payment', { ...CARD_PAYMENT, taxAmount: '19.00' }, []],
    ['taxAmount equal to amount: valid', 'payment', { ...CARD_PAYMENT, taxAmount: '92.00' }, []],
    ['taxAmount above amount', 'payment', { ...CARD_PAYMENT, taxAmount: '1000.00' }, ['taxAmount']],
    [
      'taxAmount above amount on a checkout',
      'checkout',
      { amount: '10.00', currency: 'EUR', paymentType: 'DB', taxAmount: '10.01' },
      ['taxAmount'],
    ],
  ]);
});

describe('shipping.cost: a part of the amount', () => {
  table([
    ['shipping.cost below amount: valid', 'payment', { ...CARD_PAYMENT, 'shipping.cost': '4.90' }, []],
    [
      'shipping.cost above amount',
      'payment',
      { ...CARD_PAYMENT, 'shipping.cost': '92.01' },
      ['shipping.cost'],
    ],
    [
      'shipping.cost above amount on a checkout',
      'checkout',
      { amount: '10.00', currency: 'EUR', paymentType: 'DB', 'shipping.cost': '12.00' },
      ['shipping.cost'],
    ],
  ]);
});

describe("marketPlace.sellers[n].amount: the total of the seller's items", () => {
  const ITEMS = {
    'cart.items[0].name': 'Mug',
    'cart.items[0].sellerId': 'S1',
    'cart.items[0].totalAmount': '12.00',
    'cart.items[1].name': 'Cup',
    'cart.items[1].sellerId': 'S1',
    'cart.items[1].price': '2.50',
    'cart.items[1].quantity': '2',
    'cart.items[2].name': 'Tea',
    'cart.items[2].sellerId': 'S2',
    'cart.items[2].totalAmount': '75.00',
  };
  table([
    [
      'amounts that add up: valid',
      'payment',
      {
        ...CARD_PAYMENT,
        ...ITEMS,
        'marketPlace.sellers[0].id': 'S1',
        'marketPlace.sellers[0].amount': '17.00',
        'marketPlace.sellers[1].id': 'S2',
        'marketPlace.sellers[1].amount': '75.00',
      },
      [],
    ],
    [
      "a seller's amount that does not",
      'payment',
      {
        ...CARD_PAYMENT,
        ...ITEMS,
        'marketPlace.sellers[0].id': 'S1',
        'marketPlace.sellers[0].amount': '17.00',
        'marketPlace.sellers[1].id': 'S2',
        'marketPlace.sellers[1].amount': '70.00',
      },
      ['marketPlace.sellers[1].amount'],
    ],
  ]);
});

describe('customer: identificationDocType together with identificationDocId', () => {
  table([
    [
      'both: valid',
      'payment',
      {
        ...CARD_PAYMENT,
        ...NAMES,
        'customer.identificationDocType': 'PASSPORT',
        'customer.identificationDocId': 'C01X00T47',
      },
      [],
    ],
    [
      'type without id',
      'payment',
      { ...CARD_PAYMENT, ...NAMES, 'customer.identificationDocType': 'PASSPORT' },
      ['customer.identificationDocId'],
    ],
    [
      'id without type',
      'payment',
      { ...CARD_PAYMENT, ...NAMES, 'customer.identificationDocId': 'C01X00T47' },
      ['customer.identificationDocType'],
    ],
    [
      'shipping.customer: both: valid',
      'payment',
      {
        ...CARD_PAYMENT,
        'shipping.customer.identificationDocType': 'IDCARD',
        'shipping.customer.identificationDocId': 'T22000129',
      },
      [],
    ],
    [
      'shipping.customer: type without id (the pairing rule stays)',
      'payment',
      { ...CARD_PAYMENT, 'shipping.customer.identificationDocType': 'IDCARD' },
      ['shipping.customer.identificationDocId'],
    ],
  ]);
});

describe('houseNumber2 requires houseNumber1', () => {
  describe.each(['billing', 'shipping', 'merchant.billing', 'merchant.shipping'])('%s', (prefix) => {
    table([
      [
        'both: valid',
        'payment',
        { ...CARD_PAYMENT, [`${prefix}.houseNumber1`]: '12', [`${prefix}.houseNumber2`]: 'a' },
        [],
      ],
      ['houseNumber1 alone: valid', 'payment', { ...CARD_PAYMENT, [`${prefix}.houseNumber1`]: '12' }, []],
      [
        'houseNumber2 alone',
        'payment',
        { ...CARD_PAYMENT, [`${prefix}.houseNumber2`]: 'a' },
        [`${prefix}.houseNumber1`],
      ],
    ]);
  });
});

describe('billing street1 plus street2 may not be digits only', () => {
  describe.each(['billing', 'merchant.billing'])('%s', (prefix) => {
    const at = (fields: Params): Params =>
      Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${prefix}.${k}`, v]));
    table([
      ['street1 with a name: valid', 'payment', { ...CARD_PAYMENT, ...at({ street1: 'Hauptstr. 1' }) }, []],
      [
        'street1 name, street2 digits: valid',
        'payment',
        { ...CARD_PAYMENT, ...at({ street1: 'Hauptstr.', street2: '12' }) },
        [],
      ],
      [
        'street1 digits, street2 name: valid',
        'payment',
        { ...CARD_PAYMENT, ...at({ street1: '12', street2: 'Hauptstr.' }) },
        [],
      ],
      [
        'street1 digits only',
        'payment',
        { ...CARD_PAYMENT, ...at({ street1: '123' }) },
        [`${prefix}.street1`],
      ],
      [
        'street1 and street2 digits only',
        'payment',
        { ...CARD_PAYMENT, ...at({ street1: '12', street2: '34' }) },
        [`${prefix}.street1`],
      ],
      [
        'digits and spaces only',
        'payment',
        { ...CARD_PAYMENT, ...at({ street1: '12 34' }) },
        [`${prefix}.street1`],
      ],
      [
        'street2 digits only, no street1',
        'payment',
        { ...CARD_PAYMENT, ...at({ street2: '34' }) },
        [`${prefix}.street2`],
      ],
      [
        'street2 ignored with houseNumber1: digits-only street1 is refused though street2 has a name',
        'payment',
        { ...CARD_PAYMENT, ...at({ street1: '123', street2: 'Hauptstr.', houseNumber1: '5' }) },
        [`${prefix}.street1`],
      ],
      [
        'street2 ignored with houseNumber1: digits-only street2 does not count',
        'payment',
        { ...CARD_PAYMENT, ...at({ street2: '34', houseNumber1: '5' }) },
        [],
      ],
    ]);
  });
});

describe('forex.amount with forex.currency', () => {
  table([
    ['both: valid', 'payment', { ...CARD_PAYMENT, 'forex.amount': '100.00', 'forex.currency': 'USD' }, []],
    ['amount alone', 'payment', { ...CARD_PAYMENT, 'forex.amount': '100.00' }, ['forex.currency']],
    ['currency alone', 'payment', { ...CARD_PAYMENT, 'forex.currency': 'USD' }, ['forex.amount']],
  ]);
});

describe('wallets: token or source, and the decrypted-card variant', () => {
  describe.each([
    ['walletA', 'WALLETA'],
    ['walletB', 'WALLETB'],
    ['walletC', 'WALLETC'],
  ])('%s', (wallet, brand) => {
    const base: Params = { ...PAY, paymentBrand: brand };
    table([
      ['encrypted token: valid', 'payment', { ...base, [`${wallet}.paymentToken`]: '{"signature":"…"}' }, []],
      ['neither token nor source', 'payment', base, [`${wallet}.paymentToken`]],
      [
        'token and source together (with the decrypted card)',
        'payment',
        { ...base, [`${wallet}.paymentToken`]: 'tok', [`${wallet}.source`]: 'web', ...DECRYPTED },
        [`${wallet}.source`],
      ],
      [
        'token with a card',
        'payment',
        { ...base, [`${wallet}.paymentToken`]: 'tok', ...CARD_FIELDS },
        [`${wallet}.paymentToken`],
      ],
    ]);

    it('decrypted card with source, card and 3-D Secure proof: valid', () => {
      expect(errorNames('payment', { ...base, [`${wallet}.source`]: 'app', ...DECRYPTED })).toEqual([]);
    });

    it.each(Object.keys(DECRYPTED))('decrypted card without %s names it', (missing) => {
      const { [missing]: _gone, ...rest } = DECRYPTED;
      const names = errorNames('payment', { ...base, [`${wallet}.source`]: 'web', ...rest });
      expect(names).toContain(missing);
      // Only the missing field (and, through the bug above, walletX.paymentToken).
      expect(names.filter((n) => n !== `${wallet}.paymentToken`)).toEqual([missing]);
    });

    it('source alone names every field of the decrypted card', () => {
      const names = errorNames('payment', { ...base, [`${wallet}.source`]: 'web' });
      for (const field of Object.keys(DECRYPTED)) expect(names).toContain(field);
    });
  });
});

describe('threeDSecure.verificationId requires eci', () => {
  table([
    [
      'both: valid',
      'payment',
      { ...CARD_PAYMENT, 'threeDSecure.verificationId': CAVV, 'threeDSecure.eci': '05' },
      [],
    ],
    ['eci alone: valid', 'payment', { ...CARD_PAYMENT, 'threeDSecure.eci': '07' }, []],
    [
      'verificationId alone',
      'payment',
      { ...CARD_PAYMENT, 'threeDSecure.verificationId': CAVV },
      ['threeDSecure.eci'],
    ],
  ]);
});

describe('threeDSecure.schemeData[XX-USECASE]', () => {
  const items = { ...CARD_PAYMENT, 'threeDSecure.schemeData[CB-ITEMSNB]': '02' };
  const usecase = 'threeDSecure.schemeData[CB-USECASE]';
  table([
    ['payment authentication with USECASE: valid', 'payment', { ...items, [usecase]: '01' }, []],
    ['payment authentication without USECASE', 'payment', items, [usecase]],
    ['npa=false without USECASE', 'payment', { ...items, 'threeDSecure.npa': 'false' }, [usecase]],
    [
      'SCORE_MERCHANT without USECASE',
      'payment',
      { ...CARD_PAYMENT, 'threeDSecure.schemeData[CB-SCORE_MERCHANT]': 'A1' },
      [usecase],
    ],
    ['npa=true without indicator: not required', 'payment', { ...items, 'threeDSecure.npa': 'true' }, []],
    [
      'npa=true, ADD_CARD: not required',
      'payment',
      { ...items, 'threeDSecure.npa': 'true', 'threeDSecure.authenticationInd': 'ADD_CARD' },
      [],
    ],
    [
      'npa=true, RECURRING (02) without USECASE',
      'payment',
      { ...items, 'threeDSecure.npa': 'true', 'threeDSecure.authenticationInd': 'RECURRING' },
      [usecase],
    ],
    [
      'npa=true, INSTALLMENT (03) without USECASE',
      'payment',
      { ...items, 'threeDSecure.npa': 'true', 'threeDSecure.authenticationInd': 'INSTALLMENT' },
      [usecase],
    ],
    [
      'npa=true, RECURRING with USECASE: valid',
      'payment',
      {
        ...items,
        'threeDSecure.npa': 'true',
        'threeDSecure.authenticationInd': 'RECURRING',
        [usecase]: '02',
      },
      [],
    ],
    [
      'two schemes, one without USECASE',
      'payment',
      { ...items, [usecase]: '01', 'threeDSecure.schemeData[XY-ITEMSNB]': '01' },
      ['threeDSecure.schemeData[XY-USECASE]'],
    ],
  ]);
});

describe('cart items: sellerId names a marketPlace seller', () => {
  const sellers = { 'marketPlace.sellers[0].id': 's1', 'marketPlace.sellers[1].id': 's2' };
  table([
    [
      'every sellerId known: valid',
      'payment',
      { ...CARD_PAYMENT, ...sellers, 'cart.items[0].sellerId': 's1', 'cart.items[1].sellerId': 's2' },
      [],
    ],
    [
      'items without sellerId: valid',
      'payment',
      { ...CARD_PAYMENT, ...sellers, 'cart.items[0].name': 'Book' },
      [],
    ],
    [
      'unknown sellerId',
      'payment',
      { ...CARD_PAYMENT, ...sellers, 'cart.items[0].sellerId': 's3' },
      ['cart.items[0].sellerId'],
    ],
    [
      'second item unknown',
      'payment',
      { ...CARD_PAYMENT, ...sellers, 'cart.items[0].sellerId': 's1', 'cart.items[1].sellerId': 's9' },
      ['cart.items[1].sellerId'],
    ],
  ]);
});

describe('only when a checkout is created: overridePaymentType and registrations[n].id', () => {
  const override = { 'overridePaymentType[VISA]': 'PA' };
  const registrations = { 'registrations[0].id': ID32, 'registrations[1].id': ID32.replace('8a', '9b') };
  table([
    ['overridePaymentType at checkout: valid', 'checkout', { ...PAY, ...override }, []],
    [
      'overridePaymentType at payment',
      'payment',
      { ...CARD_PAYMENT, ...override },
      ['overridePaymentType[VISA]'],
    ],
    [
      'overridePaymentType at registrationPayment',
      'registrationPayment',
      { ...PAY, ...override },
      ['overridePaymentType[VISA]'],
    ],
    ['registrations at checkout: valid', 'checkout', { ...PAY, ...registrations }, []],
    [
      'registrations at payment',
      'payment',
      { ...CARD_PAYMENT, ...registrations },
      ['registrations[0].id', 'registrations[1].id'],
    ],
    [
      'registrations at registrationPayment',
      'registrationPayment',
      { ...PAY, ...registrations },
      ['registrations[0].id', 'registrations[1].id'],
    ],
    [
      'registrations item without id at checkout',
      'checkout',
      { ...PAY, 'registrations[0].id': ID32, 'registrations[1].idd': ID32 },
      ['registrations[1].id', 'registrations[1].idd'],
    ],
  ]);
});

describe('query: merchantTransactionId and the date.from/date.to time frame', () => {
  const from = '2024-01-01 00:00:00';
  const to = '2024-01-31 23:59:59';
  table([
    ['no filter: valid', 'query', {}, []],
    ['merchantTransactionId alone: valid', 'query', { merchantTransactionId: 'order-1234' }, []],
    ['a time frame: valid', 'query', { 'date.from': from, 'date.to': to }, []],
    ['from equal to to: valid', 'query', { 'date.from': from, 'date.to': from }, []],
    [
      'merchantTransactionId with a time frame',
      'query',
      { merchantTransactionId: 'order-1234', 'date.from': from, 'date.to': to },
      ['date.from', 'date.to', 'merchantTransactionId'],
    ],
    [
      'merchantTransactionId with date.to only',
      'query',
      { merchantTransactionId: 'order-1234', 'date.to': to },
      ['date.from', 'date.to', 'merchantTransactionId'],
    ],
    ['date.from alone', 'query', { 'date.from': from }, ['date.to']],
    ['date.to alone', 'query', { 'date.to': to }, ['date.from']],
    [
      'shortId with merchantTransactionId: valid',
      'query',
      { shortId: '1234.5678.9012', merchantTransactionId: 'o' },
      [],
    ],
    [
      'shortId with a time frame: valid',
      'query',
      { shortId: '1234.5678.9012', 'date.from': from, 'date.to': to },
      [],
    ],
    ['shortId alone', 'query', { shortId: '1234.5678.9012' }, ['shortId']],
    [
      'shortId longer than 14',
      'query',
      { shortId: '1234.5678.90123', merchantTransactionId: 'o' },
      ['shortId'],
    ],
    ['from after to', 'query', { 'date.from': to, 'date.to': from }, ['date.to']],
    [
      'dates, not timestamps',
      'query',
      { 'date.from': '2024-01-01', 'date.to': '2024-01-31' },
      ['date.from', 'date.to'],
    ],
  ]);
});

describe('reporting: date.from and date.to required', () => {
  table([
    ['both: valid', 'reporting', { 'date.from': '2024-01-01', 'date.to': '2024-01-31' }, []],
    ['date.from alone', 'reporting', { 'date.from': '2024-01-01' }, ['date.to']],
    ['date.to alone', 'reporting', { 'date.to': '2024-01-31' }, ['date.from']],
    ['from after to', 'reporting', { 'date.from': '2024-02-01', 'date.to': '2024-01-31' }, ['date.to']],
  ]);

  it('neither date: both required', () => {
    expect(errorNames('reporting', {})).toEqual(['date.from', 'date.to']);
  });
  it('only a sort order: both dates required', () => {
    expect(errorNames('reporting', { sortOrder: 'ASC' })).toEqual(['date.from', 'date.to']);
  });
});

describe("schedule: the job takes the spec's defaults, endDate not before startDate", () => {
  table([
    ['job.expression: valid', 'schedule', { ...SCHEDULE, 'job.expression': '0 0 12 1 * ?' }, []],
    ['job.* fields: valid', 'schedule', { ...SCHEDULE, 'job.dayOfMonth': '1', 'job.hour': '12' }, []],
    // the spec's defaults: once a year, 1 January at midnight
    ['no job: valid, the defaults', 'schedule', SCHEDULE, []],
    ['no registrationId', 'schedule', { ...PAY, 'job.expression': '0 0 12 1 * ?' }, ['registrationId']],
    [
      'end after start: valid',
      'schedule',
      { ...SCHEDULE, 'job.startDate': '2024-01-01 00:00:00', 'job.endDate': '2025-01-01 00:00:00' },
      [],
    ],
    [
      'end equal to start: valid',
      'schedule',
      { ...SCHEDULE, 'job.startDate': '2024-01-01 00:00:00', 'job.endDate': '2024-01-01 00:00:00' },
      [],
    ],
    [
      'end before start',
      'schedule',
      { ...SCHEDULE, 'job.startDate': '2024-01-02 00:00:00', 'job.endDate': '2024-01-01 23:59:59' },
      ['job.endDate'],
    ],
    [
      'paymentType not a registration charge',
      'schedule',
      { ...SCHEDULE, paymentType: 'RF', 'job.hour': '1' },
      ['paymentType'],
    ],
  ]);
});

describe('checkout: paymentType required unless createRegistration=true', () => {
  const { paymentType: _pt, ...noType } = PAY;
  table([
    ['paymentType: valid', 'checkout', PAY, []],
    ['no paymentType', 'checkout', noType, ['paymentType']],
    ['createRegistration=true: valid', 'checkout', { ...noType, createRegistration: 'true' }, []],
    ['createRegistration=1 (legacy): valid', 'checkout', { ...noType, createRegistration: '1' }, []],
    ['createRegistration=false', 'checkout', { ...noType, createRegistration: 'false' }, ['paymentType']],
    ['createRegistration=0', 'checkout', { ...noType, createRegistration: '0' }, ['paymentType']],
    ['a referencing type', 'checkout', { ...PAY, paymentType: 'RF' }, ['paymentType']],
  ]);
  const { amount: _a, currency: _c, ...noMoney } = PAY;
  const { paymentType: _t, ...registerOnly } = noMoney;
  table([
    ['registration only, no amount: valid', 'checkout', { ...registerOnly, createRegistration: 'true' }, []],
    [
      'registration only, amount without currency',
      'checkout',
      { ...registerOnly, createRegistration: 'true', amount: '1.00' },
      ['currency'],
    ],
    ['a payment checkout without amount and currency', 'checkout', noMoney, ['amount', 'currency']],
    [
      'paying and registering still needs the amount',
      'checkout',
      { ...noMoney, createRegistration: 'true' },
      ['amount', 'currency'],
    ],
  ]);
});

describe('referencing: amount and currency, except for a full reversal', () => {
  table([
    ['full reversal: valid', 'referencing', { paymentType: 'RV' }, []],
    ['partial reversal: valid', 'referencing', { paymentType: 'RV', amount: '10.00', currency: 'EUR' }, []],
    [
      'partial reversal without currency',
      'referencing',
      { paymentType: 'RV', amount: '10.00' },
      ['currency'],
    ],
    ['partial reversal without amount', 'referencing', { paymentType: 'RV', currency: 'EUR' }, ['amount']],
    ...(['CP', 'RF', 'RB'] as const).flatMap((type): Case[] => [
      [
        `${type} with amount and currency: valid`,
        'referencing',
        { paymentType: type, amount: '10.00', currency: 'EUR' },
        [],
      ],
      [`${type} without amount and currency`, 'referencing', { paymentType: type }, ['amount', 'currency']],
      [`${type} without currency`, 'referencing', { paymentType: type, amount: '10.00' }, ['currency']],
    ]),
  ]);
});

describe('payment types per request kind', () => {
  table([
    ...(['CP', 'RV', 'RF', 'RB'] as const).map(
      (type): Case => [
        `referencing ${type}: valid`,
        'referencing',
        { paymentType: type, amount: '1.00', currency: 'EUR' },
        [],
      ],
    ),
    ...(['PA', 'DB', 'CD', 'PA.CP', 'CB', 'CR', 'RG', 'cp'] as const).map(
      (type): Case => [
        `referencing ${type}`,
        'referencing',
        { paymentType: type, amount: '1.00', currency: 'EUR' },
        ['paymentType'],
      ],
    ),
    ['referencing without paymentType', 'referencing', { amount: '1.00', currency: 'EUR' }, ['paymentType']],
    ...(['PA', 'DB', 'CD', 'PA.CP'] as const).map(
      (type): Case => [`payment ${type}: valid`, 'payment', { ...CARD_PAYMENT, paymentType: type }, []],
    ),
    ...(['CP', 'RV', 'RF', 'RB', 'CB', 'RG', 'db'] as const).map(
      (type): Case => [`payment ${type}`, 'payment', { ...CARD_PAYMENT, paymentType: type }, ['paymentType']],
    ),
    ['payment without paymentType', 'payment', { ...CARD_PAYMENT, paymentType: '' }, ['paymentType']],
    [
      'payment without amount and currency',
      'payment',
      { ...CARD_PAYMENT, amount: '', currency: '' },
      ['amount', 'currency'],
    ],
    ...(['PA', 'DB', 'CD'] as const).map(
      (type): Case => [
        `registrationPayment ${type}: valid`,
        'registrationPayment',
        { ...PAY, paymentType: type },
        [],
      ],
    ),
    ['registrationPayment PA.CP', 'registrationPayment', { ...PAY, paymentType: 'PA.CP' }, ['paymentType']],
  ]);
});

describe('one instrument per request, matching paymentBrand', () => {
  const { paymentBrand: _brand, ...noBrand } = CARD_PAYMENT;
  table([
    ['VISA with a card: valid', 'payment', CARD_PAYMENT, []],
    ['DIRECTDEBIT_SEPA with a bank account: valid', 'payment', SEPA, []],
    [
      'VISA with a network token: valid',
      'payment',
      {
        ...PAY,
        paymentBrand: 'VISA',
        'tokenAccount.number': '4200000000000000',
        'tokenAccount.type': 'NETWORK',
        'tokenAccount.cryptogram': 'AgAAAAAABk4DWZ4C28yUQAAAAAA=',
      },
      [],
    ],
    [
      'a network token without its cryptogram',
      'payment',
      {
        ...PAY,
        paymentBrand: 'VISA',
        'tokenAccount.number': '4200000000000000',
        'tokenAccount.type': 'NETWORK',
      },
      ['tokenAccount.cryptogram'],
    ],
    [
      'an EXTERNAL token needs no cryptogram: valid',
      'payment',
      {
        ...PAY,
        paymentBrand: 'VISA',
        'tokenAccount.number': '4200000000000000',
        'tokenAccount.type': 'EXTERNAL',
      },
      [],
    ],
    [
      'a token expiry month without its year',
      'payment',
      {
        ...PAY,
        paymentBrand: 'VISA',
        'tokenAccount.number': '4200000000000000',
        'tokenAccount.type': 'EXTERNAL',
        'tokenAccount.expiryMonth': '05',
      },
      ['tokenAccount.expiryYear'],
    ],
    [
      'VIRTUAL_ACCOUNT with a virtual account: valid',
      'payment',
      { ...PAY, paymentBrand: 'VIRTUAL_ACCOUNT', 'virtualAccount.accountId': 'jane@example.com' },
      [],
    ],
    [
      'GIFTCARD with a gift card: valid',
      'payment',
      { ...PAY, paymentBrand: 'GIFTCARD', 'giftCard.number': '600000123' },
      [],
    ],
    ['VISA with a bank account', 'payment', { ...SEPA, paymentBrand: 'VISA' }, ['paymentBrand']],
    [
      'DIRECTDEBIT_SEPA with a card',
      'payment',
      { ...CARD_PAYMENT, paymentBrand: 'DIRECTDEBIT_SEPA' },
      ['paymentBrand'],
    ],
    [
      'VISA without an instrument: every field its card needs',
      'payment',
      { ...PAY, paymentBrand: 'VISA' },
      ['card.number', 'card.expiryMonth', 'card.expiryYear'],
    ],
    [
      'DIRECTDEBIT_SEPA without an instrument',
      'payment',
      { ...PAY, paymentBrand: 'DIRECTDEBIT_SEPA' },
      ['bankAccount.holder', 'bankAccount.iban', 'bankAccount.bic'],
    ],
    [
      'WALLETB without an instrument',
      'payment',
      { ...PAY, paymentBrand: 'WALLETB' },
      ['walletB.paymentToken'],
    ],
    ['no brand and no instrument', 'payment', PAY, ['paymentBrand']],
    ['a card without a brand', 'payment', noBrand, ['paymentBrand']],
    [
      'a card and a virtual account',
      'payment',
      { ...CARD_PAYMENT, 'virtualAccount.accountId': 'x' },
      ['virtualAccount.accountId'],
    ],
    [
      'a card and a bank account',
      'payment',
      {
        ...CARD_PAYMENT,
        'bankAccount.holder': 'Jane Jones',
        'bankAccount.iban': 'DE89370400440532013000',
        'bankAccount.bic': 'COBADEFFXXX',
      },
      ['bankAccount.holder', 'bankAccount.iban', 'bankAccount.bic'],
    ],
    [
      'no instrument with referenceUuid: valid',
      'payment',
      { ...PAY, paymentBrand: 'VISA', referenceUuid: ID32 },
      [],
    ],
    ['registration: VISA with a card: valid', 'registration', { paymentBrand: 'VISA', ...CARD_FIELDS }, []],
    [
      'registration: VISA with a bank account',
      'registration',
      {
        paymentBrand: 'VISA',
        'bankAccount.holder': 'Jane Jones',
        'bankAccount.iban': 'DE89370400440532013000',
        'bankAccount.bic': 'COBADEFFXXX',
      },
      ['paymentBrand'],
    ],
    [
      'registration: VISA without an instrument',
      'registration',
      { paymentBrand: 'VISA' },
      ['card.number', 'card.expiryMonth', 'card.expiryYear'],
    ],
    ['checkoutPayment: a card without a brand (detected): valid', 'checkoutPayment', CARD_FIELDS, []],
    [
      'checkoutPayment: no instrument (a stored registration): valid',
      'checkoutPayment',
      { paymentBrand: 'VISA' },
      [],
    ],
    [
      'checkoutPayment: VISA with a bank account',
      'checkoutPayment',
      {
        paymentBrand: 'VISA',
        'bankAccount.holder': 'Jane Jones',
        'bankAccount.iban': 'DE89370400440532013000',
        'bankAccount.bic': 'COBADEFFXXX',
      },
      ['paymentBrand'],
    ],
  ]);
});

describe('widget and stored-registration requests', () => {
  table([
    [
      'checkoutPayment: SHOPPER_ custom parameter: valid',
      'checkoutPayment',
      { ...CARD_FIELDS, 'customParameters[SHOPPER_orderRef]': 'A-1' },
      [],
    ],
    [
      'checkoutPayment: custom parameter without SHOPPER_',
      'checkoutPayment',
      { ...CARD_FIELDS, 'customParameters[orderRef]': 'A-1' },
      ['customParameters[orderRef]'],
    ],
    [
      'checkoutPayment: lower-case shopper_ prefix',
      'checkoutPayment',
      { ...CARD_FIELDS, 'customParameters[shopper_x]': 'A-1' },
      ['customParameters[shopper_x]'],
    ],
    [
      'payment: custom parameter without SHOPPER_: valid (server side)',
      'payment',
      { ...CARD_PAYMENT, 'customParameters[orderRef]': 'A-1' },
      [],
    ],
    ['registrationPayment: plain: valid', 'registrationPayment', PAY, []],
    [
      'registrationPayment: a new card number',
      'registrationPayment',
      { ...PAY, ...CARD_FIELDS },
      ['card.number'],
    ],
  ]);

  // expiryMonth and expiryYear are `req: 'R'` within the card group, so any card.* field brings
  // three "is required" errors and card.cvv can never be sent with a stored registration.
  it('registrationPayment: card.cvv alone with a stored registration: valid', () => {
    expect(errorNames('registrationPayment', { ...PAY, 'card.cvv': '123' })).toEqual([]);
  });
});

describe('unknown names refused, legacy names known', () => {
  table([
    ['card.numbr', 'payment', { ...CARD_PAYMENT, 'card.numbr': '4200000000000000' }, ['card.numbr']],
    ['amout', 'payment', { ...CARD_PAYMENT, amout: '92.00' }, ['amout']],
    [
      'customer.givenname (case matters)',
      'payment',
      { ...CARD_PAYMENT, ...NAMES, 'customer.givenname': 'Jane' },
      ['customer.givenname'],
    ],
    [
      'cart.items[0].nmae',
      'payment',
      { ...CARD_PAYMENT, 'cart.items[0].nmae': 'Book' },
      ['cart.items[0].nmae'],
    ],
    [
      'threeDSecure.foo.bar',
      'payment',
      { ...CARD_PAYMENT, 'threeDSecure.foo.bar': '1' },
      ['threeDSecure.foo.bar'],
    ],
    [
      'a whole unknown group',
      'payment',
      { ...CARD_PAYMENT, 'shopper.name': 'x', 'shopper.mail': 'y' },
      ['shopper.mail', 'shopper.name'],
    ],
    [
      'a section another kind takes (job.hour at payment)',
      'payment',
      { ...CARD_PAYMENT, 'job.hour': '1' },
      ['job.hour'],
    ],
    [
      'bankAccount at referencing',
      'referencing',
      { paymentType: 'RV', 'bankAccount.holder': 'Jane Jones' },
      ['bankAccount.holder'],
    ],
    [
      'legacy credentials: valid',
      'payment',
      {
        ...CARD_PAYMENT,
        'authentication.userId': '8a8294174b7ecb28014b9699220015cc',
        'authentication.password': 'sy6KJsT8',
        'authentication.entityId': '8a8294174b7ecb28014b9699220015ca',
      },
      [],
    ],
    ['entityId: valid', 'payment', { ...CARD_PAYMENT, entityId: '8a8294174b7ecb28014b9699220015ca' }, []],
    ['recurringType=INITIAL: valid', 'payment', { ...CARD_PAYMENT, recurringType: 'INITIAL' }, []],
    ['recurringType=REPEATED: valid', 'payment', { ...CARD_PAYMENT, recurringType: 'REPEATED' }, []],
    ['recurringType=ONCE', 'payment', { ...CARD_PAYMENT, recurringType: 'ONCE' }, ['recurringType']],
    [
      'notificationUrl: valid',
      'payment',
      { ...CARD_PAYMENT, notificationUrl: 'https://shop.example/notify' },
      [],
    ],
    ['registrations[0].id at checkout: valid', 'checkout', { ...PAY, 'registrations[0].id': ID32 }, []],
    [
      'customParameters[SHOPPER_x] at checkout: valid',
      'checkout',
      { ...PAY, 'customParameters[SHOPPER_x]': '1' },
      [],
    ],
    [
      'customParameters[SHOPPER_x] at payment: valid',
      'payment',
      { ...CARD_PAYMENT, 'customParameters[SHOPPER_x]': '1' },
      [],
    ],
    [
      'legacy credentials at query: valid',
      'query',
      { 'authentication.userId': 'u', 'authentication.password': 'p', 'authentication.entityId': ID32 },
      [],
    ],
  ]);

  it('the password is never echoed', () => {
    const result = parseRequest(
      'payment',
      form({ ...CARD_PAYMENT, 'authentication.password': 'p'.repeat(256) }),
    );
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain('p'.repeat(256));
  });
});
