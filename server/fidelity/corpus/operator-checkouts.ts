/**
 * The operator's COPYandPAY samples (PAYON-AG/copyandpay-curl): a checkout per brand, with the
 * data each brand's page needs, and the status read without credentials (status.sh).
 */
import type { Entry } from '../entry';
import { CHECKOUT, curlSample, EXTERNAL_REFUSED, REPEATED_NAMES, type Sample } from './curl';

const REPO = 'PAYON-AG/copyandpay-curl';
const PLAIN = 'operator: checkout (copyandpay.sh)';

const checkout = (
  brand: string | undefined,
  data: string[],
  expect: Entry['expect'] = CHECKOUT,
  note?: string,
): Sample => ({
  name: brand === undefined ? PLAIN : `operator: checkout for ${brand}`,
  file: brand === undefined ? 'copyandpay.sh' : `copyandpay-${brand}.sh`,
  ...(note === undefined ? {} : { note }),
  path: '/v1/checkouts',
  data,
  expect,
});

const klarnaCart = (item: number, id: string, quantity: string): string[] => [
  `cart.items[${item}].merchantItemId=${id}`,
  `cart.items[${item}].discount=0.00`,
  `cart.items[${item}].quantity=${quantity}`,
  `cart.items[${item}].name=Product ${id}`,
  `cart.items[${item}].price=1.00`,
  `cart.items[${item}].tax=6.00`,
  `customParameters[KLARNA_CART_ITEM${id}_FLAGS]=32`,
];
const KLARNA = [
  'paymentType=PA',
  'amount=10.00',
  'currency=SEK',
  'billing.country=SE',
  'customer.givenName=Joe',
  'customer.surname=Doe',
  ...klarnaCart(0, '1', '5'),
  ...klarnaCart(1, '2', '1'),
];
const PAYOLUTION = [
  'paymentType=PA',
  'amount=10.00',
  'currency=EUR',
  'customer.surname=Jones',
  'customer.givenName=Jane',
  'customer.birthDate=1970-01-01',
  'billing.city=Test',
  'billing.country=DE',
  'billing.street1=123 Test Street',
  'billing.postcode=TE1 2ST',
  'customer.email=test@test.com',
  'customer.phone=1234567890',
  'customer.ip=123.123.123.123',
  'customParameters[PAYOLUTION_ITEM_PRICE_1]=2.00',
  'customParameters[PAYOLUTION_ITEM_DESCR_1]=Test item #1',
  'customParameters[PAYOLUTION_ITEM_PRICE_1]=3.00',
  'customParameters[PAYOLUTION_ITEM_DESCR_1]=Test item #2',
  'testMode=EXTERNAL',
];

const SAMPLES: readonly Sample[] = [
  checkout(undefined, ['paymentType=DB', 'amount=50.99', 'currency=EUR']),
  checkout(
    'BRADESCO',
    [
      'paymentType=PA',
      'amount=10.00',
      'currency=BRL',
      'customParameters[BRADESCO_cpfsacado]=11111111111',
      'billing.country=BR',
      'billing.postcode=12345678',
      'billing.state=SP',
      'billing.street1=Amazonstda',
      'billing.city=Brasilia',
      'customer.givenName=Braziliano',
      'customer.surname=Babtiste',
      'testMode=EXTERNAL',
    ],
    EXTERNAL_REFUSED,
  ),
  checkout('CHINAUNIONPAY', ['paymentType=DB', 'amount=50.99', 'currency=USD']),
  checkout('DAOPAY', [
    'paymentType=DB',
    'amount=50.99',
    'currency=EUR',
    'billing.country=DE',
    'notificationUrl=https://test.docs.oppwa.com/notification/',
  ]),
  checkout('KLARNA_INSTALLMENTS', KLARNA),
  checkout('KLARNA_INVOICE', KLARNA),
  ...['PAYOLUTION_ELV', 'PAYOLUTION_INS', 'PAYOLUTION_INVOICE'].map((brand) =>
    checkout(
      brand,
      PAYOLUTION,
      REPEATED_NAMES,
      'birthDate, phone 1234567890, postcode TE1 2ST, repeated custom parameters, testMode EXTERNAL',
    ),
  ),
  checkout('POLI', ['paymentType=DB', 'amount=50.99', 'currency=AUD', 'bankAccount.country=AU']),
  checkout(
    'TRUSTPAY_VA',
    [
      'paymentType=DB',
      'amount=10.00',
      'currency=EUR',
      'customer.surname=Jones',
      'customer.givenName=Jane',
      'testMode=EXTERNAL',
    ],
    EXTERNAL_REFUSED,
  ),
  checkout('YANDEX', ['paymentType=DB', 'amount=50.99', 'currency=RUB']),
];

export const OPERATOR_CHECKOUTS: readonly Entry[] = [
  ...SAMPLES.map((s) => curlSample(REPO, s)),
  {
    name: 'operator: checkout status without credentials (status.sh)',
    source: {
      repo: REPO,
      path: 'status.sh',
      note: 'curl …/v1/checkouts/$1/payment: no credentials, no entityId',
    },
    method: 'GET',
    path: '/v1/checkouts/{checkoutId}/payment',
    setup: { prior: PLAIN, auth: 'none' },
    familyAnswer: {
      httpStatus: 200,
      resultCode: '000.200.000',
      notes: 'facts/client-compat.md: a checkout before payment answers 200 000.200.000',
    },
    expect: { status: 200, resultCode: '000.200.000' },
  },
];
