/**
 * The operator's server-to-server samples (PAYON-AG/servertoserver-curl, one script per brand and
 * back-office call; the same requests as its php, python, ruby … repositories): all 33 scripts.
 * Their cards expire in 2018: initialpayment-VISA.sh is kept as written once (an expired card is
 * declined, as the family's validation does: DECISIONS, Outcomes), every other card has a future
 * year. Back-office calls reference payments made first (the samples' ids are the docs account's).
 */
import type { Entry } from '../entry';
import {
  ACCEPTED_LATER,
  curlSample,
  EXTERNAL_REFUSED,
  FLOW_ANSWER,
  PENDING_REDIRECT,
  REPEATED_NAMES,
  type Sample,
  SUCCESS,
} from './curl';

const REPO = 'PAYON-AG/servertoserver-curl';
const FUTURE = 'card.expiryYear={expiryYear}';
const cardLines = (brand: string, number: string, cvv = '123', year = FUTURE): string[] => [
  `paymentBrand=${brand}`,
  `card.number=${number}`,
  'card.holder=Jane Jones',
  'card.expiryMonth=05',
  year,
  `card.cvv=${cvv}`,
];
const FUTURE_NOTE = 'its 2018 expiry made a future year';

const cardPayment = (brand: string, number: string, cvv = '123'): Sample => ({
  name: `operator: initial payment ${brand} (PA)`,
  file: `initialpayment-${brand}.sh`,
  note: FUTURE_NOTE,
  path: '/v1/payments',
  data: [
    'amount=92.00',
    'currency=EUR',
    ...cardLines(brand, number, cvv).slice(0, 1),
    'paymentType=PA',
    ...cardLines(brand, number, cvv).slice(1),
  ],
  expect: SUCCESS,
});

const registration = (brand: string, data: string[], note = FUTURE_NOTE): Sample => ({
  name: `operator: registration ${brand}`,
  file: `registration${brand}.sh`,
  note,
  path: '/v1/registrations',
  data,
  expect: SUCCESS,
});

/** A redirect or invoice method's initial payment: amount, currency, brand, type, then its own lines. */
const method = (brand: string, head: string[], tail: string[], expect: Entry['expect']): Sample => ({
  name: `operator: initial payment ${brand}`,
  file: `initialpayment-${brand}.sh`,
  path: '/v1/payments',
  data: [...head, `paymentBrand=${brand}`, ...tail],
  expect,
});

const CART = [
  'cart.items[0].merchantItemId=1',
  'cart.items[0].discount=0.00',
  'cart.items[0].quantity=5',
  'cart.items[0].name=Product 1',
  'cart.items[0].price=1.00',
  'cart.items[0].tax=6.00',
];
const PAYOLUTION_SHOPPER = [
  'customer.givenName=Jane',
  'customer.surname=Jones',
  'customer.email=test@test.com',
  'customer.ip=123.123.123.123',
  'billing.street1=123 Street',
  'billing.country=DE',
  'billing.city=Munich',
  'billing.postcode=A1 2BC',
];
const BRADESCO_SHOPPER = [
  'customer.givenName=Braziliano',
  'customer.surname=Babtiste',
  'billing.city=Brasilia',
  'billing.country=BR',
];

const SAMPLES: readonly Sample[] = [
  {
    name: 'operator: status of a payment, credentials in the query (curl -G)',
    file: 'asyncStatus.sh',
    method: 'GET',
    path: '/v1/payments/{paymentId}',
    prior: 'prior: card DB',
    expect: SUCCESS,
  },
  ...(
    [
      ['CAPTURE', 'CP', 'prior: card PA'],
      ['REFUND', 'RF', 'prior: card DB'],
    ] as const
  ).map(
    ([file, type, prior]): Sample => ({
      name: `operator: back office ${type}`,
      file: `backoffice-${file}.sh`,
      path: '/v1/payments/{paymentId}',
      data: ['amount=10.00', 'currency=EUR', `paymentType=${type}`],
      prior,
      expect: SUCCESS,
    }),
  ),
  {
    name: 'operator: back office RV',
    file: 'backoffice-REVERSAL.sh',
    path: '/v1/payments/{paymentId}',
    data: ['paymentType=RV'],
    prior: 'prior: card PA',
    expect: SUCCESS,
  },
  {
    name: 'operator: delete a registration, credentials in the query',
    file: 'deleteRegistration.sh',
    method: 'DELETE',
    path: '/v1/registrations/{registrationId}',
    prior: 'prior: registration',
    expect: SUCCESS,
  },
  cardPayment('AMEX', '377777777777770', '1234'),
  method(
    'BRADESCO',
    ['amount=1.03', 'currency=BRL'],
    [
      'paymentType=PA',
      ...BRADESCO_SHOPPER,
      'billing.state=DE',
      'billing.street1=Amazonstda',
      'billing.postcode=12345678',
      'customParameters[BRADESCO_cpfsacado]=11111111111',
      'shopperResultUrl=https://docs.oppwa.com',
      'testMode=EXTERNAL',
    ],
    EXTERNAL_REFUSED,
  ),
  method(
    'DIRECTDEBIT_SEPA',
    ['amount=50.00', 'currency=EUR'],
    [
      'paymentType=DB',
      'bankAccount.bic=MARKDEF1100',
      'bankAccount.iban=DE23100000001234567890',
      'bankAccount.country=DE',
      'bankAccount.holder=Jane Jones',
      'shopperResultUrl=https://docs.oppwa.com',
    ],
    SUCCESS,
  ),
  method(
    'EPS',
    ['amount=12.03', 'currency=EUR'],
    ['paymentType=PA', 'bankAccount.country=AT', 'shopperResultUrl=https://docs.oppwa.com'],
    PENDING_REDIRECT,
  ),
  method(
    'GIROPAY',
    ['amount=92.12', 'currency=EUR'],
    [
      'paymentType=PA',
      'bankAccount.bic=TESTDETT421',
      'bankAccount.iban=DE14940593100000012346',
      'bankAccount.country=DE',
      'shopperResultUrl=https://docs.oppwa.com',
    ],
    PENDING_REDIRECT,
  ),
  method(
    'IDEAL',
    ['amount=92.12', 'currency=EUR'],
    [
      'paymentType=PA',
      'bankAccount.bankName=ING_TEST',
      'bankAccount.country=NL',
      'shopperResultUrl=https://docs.oppwa.com',
    ],
    PENDING_REDIRECT,
  ),
  ...['KLARNA_INSTALLMENTS', 'KLARNA_INVOICE'].map((brand) =>
    method(
      brand,
      ['amount=92.12', 'currency=EUR'],
      [
        'paymentType=PA',
        'customer.givenName=Jane',
        'customer.surname=Jones',
        'billing.country=SE',
        ...CART,
        'shopperResultUrl=https://docs.oppwa.com',
      ],
      ACCEPTED_LATER,
    ),
  ),
  cardPayment('MAESTRO', '6799851000000032'),
  cardPayment('MASTER', '5454545454545454'),
  method(
    'PAYOLUTION_ELV',
    ['amount=92.12', 'currency=EUR'],
    [
      'paymentType=DB',
      ...PAYOLUTION_SHOPPER,
      'customParameters[PAYOLUTION_ITEM_PRICE_1]=2.00',
      'customParameters[PAYOLUTION_ITEM_DESCR_1]=Test item #1',
      'customParameters[PAYOLUTION_ITEM_PRICE_2]=3.00',
      'customParameters[PAYOLUTION_ITEM_DESCR_2]=Test item #2',
      'testMode=EXTERNAL',
      'shopperResultUrl=https://docs.oppwa.com',
    ],
    EXTERNAL_REFUSED,
  ),
  {
    ...method(
      'PAYOLUTION_INS',
      ['amount=92.12', 'currency=EUR'],
      [
        'paymentType=DB',
        'shopperResultUrl=https://docs.oppwa.com',
        'customer.surname=Jones',
        'customer.givenName=Jane',
        ...PAYOLUTION_SHOPPER.slice(2),
        'customParameters[PAYOLUTION_ITEM_PRICE_1]=2.00',
        'customParameters[PAYOLUTION_ITEM_DESCR_1]=Test item #1',
        'customParameters[PAYOLUTION_ITEM_PRICE_1]=3.00',
        'customParameters[PAYOLUTION_ITEM_DESCR_1]=Test item #2',
        'testMode=EXTERNAL',
      ],
      REPEATED_NAMES,
    ),
    note: 'the sample repeats customParameters[PAYOLUTION_ITEM_PRICE_1] and _DESCR_1 with other values',
  },
  {
    ...method(
      'PAYOLUTION_INVOICE',
      ['amount=92.12', 'currency=EUR'],
      [
        'paymentType=DB',
        ...PAYOLUTION_SHOPPER,
        'customParameters[PAYOLUTION_ITEM_PRICE_1]=2.00',
        'customParameters[PAYOLUTION_ITEM_DESCR_1]=Test item #1',
        'customParameters[PAYOLUTION_ITEM_PRICE_1]=3.00',
        'customParameters[PAYOLUTION_ITEM_DESCR_1]=Test item #2',
        'testMode=EXTERNAL',
        'shopperResultUrl=https://docs.oppwa.com',
      ],
      REPEATED_NAMES,
    ),
    note: 'the sample repeats customParameters[PAYOLUTION_ITEM_PRICE_1] and _DESCR_1 with other values',
  },
  method(
    'PAYPAL',
    ['amount=92.12', 'currency=EUR'],
    ['paymentType=PA', 'shopperResultUrl=https://docs.oppwa.com'],
    PENDING_REDIRECT,
  ),
  method(
    'PAYSAFECARD',
    ['amount=12.12', 'currency=EUR'],
    ['paymentType=DB', 'shopperResultUrl=https://docs.oppwa.com/'],
    FLOW_ANSWER,
  ),
  method(
    'SOFORTUEBERWEISUNG',
    ['amount=10.00', 'currency=EUR'],
    ['paymentType=DB', 'bankAccount.country=AT', 'shopperResultUrl=https://docs.oppwa.com'],
    PENDING_REDIRECT,
  ),
  method(
    'TRUSTPAY_VA',
    ['amount=12.03', 'currency=EUR'],
    [
      'paymentType=DB',
      'customer.givenName=Jane',
      'customer.surname=Jones',
      'testMode=EXTERNAL',
      'shopperResultUrl=https://docs.oppwa.com',
    ],
    EXTERNAL_REFUSED,
  ),
  {
    name: 'operator: initial payment VISA as written, its card expired in 2018 → declined',
    file: 'initialpayment-VISA.sh',
    note: 'card.expiryYear=2018 kept: an expired card is declined in every mode (DECISIONS, Outcomes)',
    path: '/v1/payments',
    data: [
      'amount=92.00',
      'currency=EUR',
      'paymentBrand=VISA',
      'paymentType=PA',
      ...cardLines('VISA', '4200000000000000', '123', 'card.expiryYear=2018').slice(1),
    ],
    expect: { status: 400, resultCode: '100.100.303' },
  },
  cardPayment('VISA', '4200000000000000'),
  cardPayment('VISAELECTRON', '4917300800000000'),
  method(
    'YANDEX',
    ['amount=12.03', 'currency=RUB'],
    ['paymentType=DB', 'shopperResultUrl=https://docs.oppwa.com'],
    FLOW_ANSWER,
  ),
  registration('AMEX', cardLines('AMEX', '377777777777770', '1234')),
  registration(
    'BRADESCO',
    [
      'paymentBrand=BRADESCO',
      ...BRADESCO_SHOPPER,
      'billing.state=SP',
      'billing.street1=Amazonstda',
      'billing.postcode=12345678',
      'customParameters[BRADESCO_cpfsacado]=11111111111',
    ],
    'a boleto registration: shopper and billing data, no account',
  ),
  registration(
    'DIRECTDEBIT_SEPA',
    [
      'paymentBrand=DIRECTDEBIT_SEPA',
      'bankAccount.bic=MARKDEF1100',
      'bankAccount.iban=DE23100000001234567890',
      'bankAccount.country=DE',
      'bankAccount.holder=Jane Jones',
    ],
    'a bank account registration',
  ),
  registration('MAESTRO', cardLines('MAESTRO', '6799851000000032')),
  registration('MASTER', cardLines('MASTER', '5454545454545454')),
  registration('VISA', cardLines('VISA', '4200000000000000')),
  registration('VISAELECTRON', cardLines('VISAELECTRON', '4917300800000000')),
];

export const OPERATOR_SAMPLES: readonly Entry[] = SAMPLES.map((s) => curlSample(REPO, s));
