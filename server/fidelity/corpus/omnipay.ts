/**
 * Omnipay's drivers for the family, each body as PHP's http_build_query writes the driver's array
 * (its keys in order, null values left out, nested arrays as `a%5Bb%5D`):
 *   - vdbelt/omnipay-oppwa (the OPP driver): server-to-server and COPYandPAY requests, with its
 *     recorded real answers tests/Mock/PurchaseSuccess.txt and PurchaseFailure.txt;
 *   - ampeco/omnipay-hyperpay (HyperPay): register a card through a checkout, then pay, capture,
 *     void and delete by its registration (live form: amounts with two decimals, no testMode);
 *   - abdibr116/omnipay-hyperpay (HyperPay COPYandPAY): a checkout and its status.
 * Subscribo/omnipay-payunity speaks the family's older POST API (SECURITY.SENDER, TRANSACTION.*),
 * not /v1, and is left out.
 */
import type { Entry, Field, Source } from '../entry';

const OPPWA = (path: string, note: string): Source => ({ repo: 'vdbelt/omnipay-oppwa', path, note });
const HYPERPAY = (path: string, note: string): Source => ({ repo: 'ampeco/omnipay-hyperpay', path, note });

const SUCCESS = { status: 200, resultCode: '000.100.110', has: ['id'], strings: true } as const;
const CHECKOUT = { status: 200, resultCode: '000.200.100', has: ['id'], strings: true } as const;
/** A checkout's status before the shopper paid (facts: HTTP 200, 000.200.000). */
const NOT_YET_PAID = { status: 200, resultCode: '000.200.000' } as const;

/** AuthorizeRequest::getData's base, after sendData's entityId (array_merge puts it first). */
const base = (type: 'PA' | 'DB'): Field[] => [
  ['entityId', '{entityId}'],
  ['amount', '10.00'],
  ['currency', 'EUR'],
  ['paymentType', type],
  ['merchantTransactionId', 'order-1001'],
  ['descriptor', 'Order #1001'],
  ['shopperResultUrl', 'https://shop.example/return'],
  ['notificationUrl', 'https://shop.example/notify'],
  ['customer.ip', '203.0.113.7'],
];

/** getCardData: the brand (CreditCard::getBrand, upper case), holder, number, expiry (m, Y), cvv. */
const CARD: Field[] = [
  ['paymentBrand', 'VISA'],
  ['card.holder', 'Jane Jones'],
  ['card.number', '4200000000000000'],
  ['card.expiryMonth', '05'],
  ['card.expiryYear', '{expiryYear}'],
  ['card.cvv', '123'],
];

/** The $extra block, array_filter'ed: customer and billing. */
const EXTRA: Field[] = [
  ['customer.givenName', 'Jane'],
  ['customer.surname', 'Jones'],
  ['customer.email', 'jane@example.com'],
  ['billing.country', 'DE'],
  ['billing.city', 'Munich'],
  ['billing.state', 'BY'],
  ['billing.postcode', '81675'],
  ['billing.street1', 'Leopoldstrasse 1'],
];

const payment = (
  name: string,
  source: Source,
  body: Field[],
  expect: Entry['expect'],
  more: Partial<Entry> = {},
): Entry => ({
  name,
  source,
  method: 'POST',
  path: '/v1/payments',
  body,
  expect,
  ...more,
});

const S2S_PA = 'omnipay-oppwa: authorize a card (server-to-server)';
const S2S_DB = 'omnipay-oppwa: purchase with a card (server-to-server)';
const COPY_AND_PAY = 'omnipay-oppwa: purchase through COPYandPAY (a checkout)';
const SOFORT = [
  ...base('DB'),
  ['bankAccount.country', 'AT'],
  ['paymentBrand', 'SOFORTUEBERWEISUNG'],
] as Field[];

const OPPWA_ENTRIES: Entry[] = [
  payment(
    S2S_PA,
    OPPWA('src/Message/AuthorizeRequest.php', 'getData with a card (integrationType server-to-server)'),
    [...base('PA'), ...CARD],
    SUCCESS,
  ),
  payment(
    S2S_DB,
    OPPWA('src/Message/PurchaseRequest.php', 'AuthorizeRequest::getData with paymentType DB'),
    [...base('DB'), ...CARD],
    SUCCESS,
  ),
  payment(
    'omnipay-oppwa: purchase with a card, customer and billing',
    OPPWA('src/Message/AuthorizeRequest.php', 'the $extra block: customer.givenName … billing.street1'),
    [...base('DB'), ...EXTRA, ...CARD],
    SUCCESS,
  ),
  payment(
    'omnipay-oppwa: SOFORTUEBERWEISUNG with bankAccount.country → pending with a redirect',
    OPPWA(
      'tests/Mock/PurchaseSuccess.txt',
      'bankAccount parameter (country AT) and paymentMethod sofortueberweisung',
    ),
    SOFORT,
    {
      status: 200,
      resultCode: '000.200.000',
      has: ['redirect.url'],
      equals: { 'bankAccount.country': 'AT' },
    },
    {
      familyAnswer: {
        httpStatus: 200,
        resultCode: '000.200.000',
        notes:
          'tests/Mock/PurchaseSuccess.txt: transaction pending, redirect to the Sofort simulator, bankAccount.country AT',
      },
    },
  ),
  payment(
    'omnipay-oppwa: the same purchase with a token never issued → 403 800.900.300',
    OPPWA('tests/Mock/PurchaseFailure.txt', 'the recorded answer to a wrong access token'),
    SOFORT,
    { status: 403, resultCode: '800.900.300' },
    {
      setup: { auth: 'wrong' },
      familyAnswer: {
        httpStatus: 403,
        resultCode: '800.900.300',
        notes: 'tests/Mock/PurchaseFailure.txt: invalid authentication information',
      },
    },
  ),
  {
    name: COPY_AND_PAY,
    source: OPPWA(
      'src/Message/PurchaseRequest.php',
      'integrationType COPY_AND_PASTE: the same data to v1/checkouts',
    ),
    method: 'POST',
    path: '/v1/checkouts',
    body: base('DB'),
    expect: CHECKOUT,
  },
  {
    name: 'omnipay-oppwa: authorize through COPYandPAY (a checkout)',
    source: OPPWA('src/Message/AuthorizeRequest.php', 'integrationType COPY_AND_PASTE'),
    method: 'POST',
    path: '/v1/checkouts',
    body: base('PA'),
    expect: CHECKOUT,
  },
  ...(
    [
      ['capture', 'CaptureRequest.php', 'CP', S2S_PA],
      ['refund', 'RefundRequest.php', 'RF', S2S_DB],
    ] as const
  ).map(
    ([what, file, type, prior]): Entry => ({
      name: `omnipay-oppwa: ${what}`,
      source: OPPWA(
        `src/Message/${file}`,
        'paymentType, amount, currency after entityId, on v1/payments/{transactionReference}',
      ),
      method: 'POST',
      path: '/v1/payments/{paymentId}',
      body: [
        ['entityId', '{entityId}'],
        ['paymentType', type],
        ['amount', '10.00'],
        ['currency', 'EUR'],
      ],
      setup: { prior },
      expect: SUCCESS,
    }),
  ),
  {
    name: 'omnipay-oppwa: void',
    source: OPPWA('src/Message/VoidRequest.php', 'entityId, paymentType RV'),
    method: 'POST',
    path: '/v1/payments/{paymentId}',
    body: [
      ['entityId', '{entityId}'],
      ['paymentType', 'RV'],
    ],
    setup: { prior: S2S_PA },
    expect: SUCCESS,
  },
  {
    name: 'omnipay-oppwa: fetch a transaction (server-to-server)',
    source: OPPWA('src/Message/FetchTransactionRequest.php', 'GET v1/payments/{id}?entityId=…'),
    method: 'GET',
    path: '/v1/payments/{paymentId}?entityId={entityId}',
    setup: { prior: S2S_DB },
    expect: { ...SUCCESS, equals: { merchantTransactionId: 'order-1001', descriptor: 'Order #1001' } },
  },
  {
    name: 'omnipay-oppwa: fetch a COPYandPAY transaction before it is paid',
    source: OPPWA('src/Message/FetchTransactionRequest.php', 'GET v1/checkouts/{id}/payment?entityId=…'),
    method: 'GET',
    path: '/v1/checkouts/{checkoutId}/payment?entityId={entityId}',
    setup: { prior: COPY_AND_PAY },
    expect: NOT_YET_PAID,
  },
];

const CREATE_CARD = 'omnipay-hyperpay: create a card (a registration checkout, no paymentType)';
const MIT_PA = 'omnipay-hyperpay: authorize with a registration (MIT)';
/** standingInstruction of the driver's repeats: a merchant-initiated unscheduled payment. */
const MIT: Field[] = [
  ['standingInstruction.mode', 'REPEATED'],
  ['standingInstruction.type', 'UNSCHEDULED'],
  ['standingInstruction.source', 'MIT'],
];

const HYPERPAY_ENTRIES: Entry[] = [
  {
    name: CREATE_CARD,
    source: HYPERPAY(
      'src/Message/CreateCardRequest.php',
      "getData: createRegistration 'true' (a string), CIT INITIAL RECURRING, the create-card amount 1 in JOD",
    ),
    method: 'POST',
    path: '/v1/checkouts',
    body: [
      ['createRegistration', 'true'],
      ['currency', 'JOD'],
      ['entityId', '{entityId}'],
      ['standingInstruction.source', 'CIT'],
      ['standingInstruction.mode', 'INITIAL'],
      ['merchantTransactionId', 'card-1001'],
      ['customer.givenName', 'Jane'],
      ['customer.surname', 'Jones'],
      ['customer.email', 'jane@example.com'],
      ['amount', '1.00'],
      ['standingInstruction.type', 'RECURRING'],
    ],
    expect: CHECKOUT,
  },
  {
    name: 'omnipay-hyperpay: create a card in test mode (amount 1, testMode EXTERNAL, 3DS2 custom parameters)',
    source: HYPERPAY(
      'src/Message/CreateCardRequest.php',
      'getTestMode(): intval(amount), testMode EXTERNAL, customParameters[3DS2_enrolled] and [3DS2_flow]',
    ),
    method: 'POST',
    path: '/v1/checkouts',
    body: [
      ['createRegistration', 'true'],
      ['currency', 'JOD'],
      ['entityId', '{entityId}'],
      ['standingInstruction.source', 'CIT'],
      ['standingInstruction.mode', 'INITIAL'],
      ['merchantTransactionId', 'card-1002'],
      ['customer.givenName', 'Jane'],
      ['customer.surname', 'Jones'],
      ['customer.email', 'jane@example.com'],
      ['amount', '1'],
      ['standingInstruction.type', 'RECURRING'],
      ['testMode', 'EXTERNAL'],
      ['customParameters[3DS2_enrolled]', 'true'],
      ['customParameters[3DS2_flow]', 'challenge'],
    ],
    setup: {
      note: 'the demo channel has no connector: DECISIONS (Outcomes) refuse EXTERNAL there with a configuration code, never simulated',
    },
    expect: { status: 400, resultCodePattern: '^600\\.200\\.' },
  },
  {
    name: 'omnipay-hyperpay: card info, the checkout status before the shopper registered',
    source: HYPERPAY(
      'src/Message/GetCardInfoRequest.php',
      'GET /checkouts/{cardReference}/payment?entityId=…',
    ),
    method: 'GET',
    path: '/v1/checkouts/{checkoutId}/payment?entityId={entityId}',
    setup: { prior: CREATE_CARD },
    expect: NOT_YET_PAID,
  },
  payment(
    'omnipay-hyperpay: purchase with a registration (MIT)',
    HYPERPAY(
      'src/Message/PurchaseRequest.php',
      'amount, currency, entityId, paymentType, MIT standing instruction, merchantTransactionId',
    ),
    [
      ['amount', '25.00'],
      ['currency', 'SAR'],
      ['entityId', '{entityId}'],
      ['paymentType', 'DB'],
      ...MIT,
      ['merchantTransactionId', 'charge-1001'],
    ],
    SUCCESS,
    { path: '/v1/registrations/{registrationId}/payments', setup: { prior: 'prior: registration' } },
  ),
  payment(
    MIT_PA,
    HYPERPAY(
      'src/Message/AuthorizeRequest.php',
      'paymentType PA with shopperResultUrl and the MIT standing instruction',
    ),
    [
      ['amount', '25.00'],
      ['currency', 'SAR'],
      ['entityId', '{entityId}'],
      ['paymentType', 'PA'],
      ['shopperResultUrl', 'https://shop.example/return'],
      ...MIT,
      ['merchantTransactionId', 'auth-1001'],
    ],
    SUCCESS,
    { path: '/v1/registrations/{registrationId}/payments', setup: { prior: 'prior: registration' } },
  ),
  payment(
    'omnipay-hyperpay: capture (merchantTransactionId = the authorization id)',
    HYPERPAY(
      'src/Message/CaptureRequest.php',
      'amount, currency, entityId, paymentType, merchantTransactionId = getTransactionReference()',
    ),
    [
      ['amount', '25.00'],
      ['currency', 'SAR'],
      ['entityId', '{entityId}'],
      ['paymentType', 'CP'],
      ['merchantTransactionId', '{paymentId}'],
    ],
    SUCCESS,
    { path: '/v1/payments/{paymentId}', setup: { prior: MIT_PA } },
  ),
  payment(
    'omnipay-hyperpay: reversal with amount and currency',
    HYPERPAY(
      'src/Message/ReversalRequest.php',
      'entityId, paymentType, amount, currency, merchantTransactionId',
    ),
    [
      ['entityId', '{entityId}'],
      ['paymentType', 'RV'],
      ['amount', '25.00'],
      ['currency', 'SAR'],
      ['merchantTransactionId', 'void-1001'],
    ],
    SUCCESS,
    { path: '/v1/payments/{paymentId}', setup: { prior: MIT_PA } },
  ),
  {
    name: 'omnipay-hyperpay: delete a card (an empty form body)',
    source: HYPERPAY(
      'src/Message/DeleteCardRequest.php',
      'DELETE /registrations/{token}?entityId=…, http_build_query([]) as the body',
    ),
    method: 'DELETE',
    path: '/v1/registrations/{registrationId}?entityId={entityId}',
    body: [],
    setup: { prior: 'prior: registration' },
    expect: { status: 200, resultCode: '000.100.110' },
  },
  {
    name: 'omnipay-hyperpay: transaction result',
    source: HYPERPAY('src/Message/TransactionResultRequest.php', 'GET /payments/{id}?entityId=…'),
    method: 'GET',
    path: '/v1/payments/{paymentId}?entityId={entityId}',
    setup: { prior: 'prior: card DB' },
    expect: SUCCESS,
  },
  {
    name: 'omnipay-hyperpay (abdibr116): checkout with customer and billing',
    source: {
      repo: 'abdibr116/omnipay-hyperpay',
      path: 'src/Message/PurchaseRequest.php',
      note: 'getData: DB always; merchantTransactionId, customer.email, customer.mobile, billing.*, customer names',
    },
    method: 'POST',
    path: '/v1/checkouts',
    body: [
      ['entityId', '{entityId}'],
      ['amount', '92.00'],
      ['currency', 'SAR'],
      ['paymentType', 'DB'],
      ['merchantTransactionId', 'inv-1001'],
      ['customer.email', 'jane@example.com'],
      ['customer.mobile', '0501234567'],
      ['billing.street1', 'King Fahd Road 1'],
      ['billing.city', 'Riyadh'],
      ['billing.state', 'Riyadh'],
      ['billing.country', 'SA'],
      ['billing.postcode', '12211'],
      ['customer.givenName', 'Jane'],
      ['customer.surname', 'Jones'],
    ],
    expect: CHECKOUT,
  },
  {
    name: 'omnipay-hyperpay (abdibr116): complete purchase, the resourcePath read with entityId',
    source: {
      repo: 'abdibr116/omnipay-hyperpay',
      path: 'src/Message/CompletePurchaseRequest.php',
      note: 'GET {resourcePath}?entityId=… with a form Content-Type and no body',
    },
    method: 'GET',
    path: '/v1/checkouts/{checkoutId}/payment?entityId={entityId}',
    setup: { prior: 'omnipay-hyperpay (abdibr116): checkout with customer and billing' },
    expect: NOT_YET_PAID,
  },
];

export const OMNIPAY: readonly Entry[] = [...OPPWA_ENTRIES, ...HYPERPAY_ENTRIES];
