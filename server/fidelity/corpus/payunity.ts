/**
 * The PayUnity bundle of digital-blueprint (relay-mono-connector-payunity-bundle): its API client
 * src/PayUnity/PayUnityApi.php (Guzzle form_params: http_build_query) and the answers its tests
 * recorded from PayUnity's test platform (tests/PayUnityTest.php).
 */
import type { Entry, Source } from '../entry';

const repo = 'digital-blueprint/relay-mono-connector-payunity-bundle';
const api = (note: string): Source => ({ repo, path: 'src/PayUnity/PayUnityApi.php', note });
const recorded = (test: string, note: string): Source => ({
  repo,
  path: 'tests/PayUnityTest.php',
  note: `${test}: ${note}`,
});

const CHECKOUT = 'payunity: prepare a checkout (startPayment: testMode INTERNAL, merchantTransactionId)';
const PAID = 'payunity prior: a payment with a known merchantTransactionId';

/** What the PayUnity entries need made first (besides the shared priors). */
export const PAYUNITY_PRIORS: readonly Entry[] = [
  {
    name: PAID,
    source: recorded('testQueryMerchant', 'the payment the query by merchantTransactionId finds'),
    method: 'POST',
    path: '/v1/payments',
    body: [
      ['entityId', '{entityId}'],
      ['amount', '92.00'],
      ['currency', 'EUR'],
      ['paymentType', 'DB'],
      ['merchantTransactionId', 'payunity-{time}'],
      ['paymentBrand', 'VISA'],
      ['card.number', '4200000000000000'],
      ['card.holder', 'Jane Jones'],
      ['card.expiryMonth', '05'],
      ['card.expiryYear', '{expiryYear}'],
      ['card.cvv', '123'],
    ],
    expect: { status: 200, resultCode: '000.100.110' },
  },
];

export const PAYUNITY: readonly Entry[] = [
  {
    name: CHECKOUT,
    source: {
      repo,
      path: 'src/Service/PayunityService.php',
      note: "startPayment: prepareCheckout(amount, currency, DB, ['testMode' => 'INTERNAL', 'merchantTransactionId' => identifier])",
    },
    method: 'POST',
    path: '/v1/checkouts',
    body: [
      ['entityId', '{entityId}'],
      ['amount', '42.42'],
      ['currency', 'EUR'],
      ['paymentType', 'DB'],
      ['testMode', 'INTERNAL'],
      ['merchantTransactionId', '6fa4ef60-4e0b-4c02-9a49-0a0e0b5c9a61'],
    ],
    familyAnswer: {
      httpStatus: 200,
      resultCode: '000.200.100',
      notes: 'testPrepareCheckout: "successfully created checkout", ndc equal to the id',
    },
    expect: { status: 200, resultCode: '000.200.100', has: ['id'], strings: true },
  },
  {
    name: 'payunity: a checkout with a negative amount → 400 naming amount',
    source: recorded('testPrepareCheckoutNegative', "prepareCheckout('-20.20', 'EUR', DB)"),
    method: 'POST',
    path: '/v1/checkouts',
    body: [
      ['entityId', '{entityId}'],
      ['amount', '-20.20'],
      ['currency', 'EUR'],
      ['paymentType', 'DB'],
    ],
    familyAnswer: {
      httpStatus: 400,
      resultCode: '200.300.404',
      notes: 'recorded: "invalid or missing parameter", parameterErrors [{name: amount, value: -20.20}]',
    },
    expect: {
      status: 400,
      resultCode: '200.300.404',
      equals: { 'result.parameterErrors.0.name': 'amount' },
      strings: true,
    },
  },
  {
    name: 'payunity: status of a checkout before payment',
    source: recorded(
      'testGetPaymentStatusPending',
      'v1/checkouts/{checkoutId}/payment?entityId=…, recorded 000.200.000',
    ),
    method: 'GET',
    path: '/v1/checkouts/{checkoutId}/payment?entityId={entityId}',
    setup: { prior: CHECKOUT },
    familyAnswer: {
      httpStatus: 200,
      resultCode: '000.200.000',
      notes: 'recorded: transaction pending, no id',
    },
    expect: { status: 200, resultCode: '000.200.000' },
  },
  {
    name: 'payunity: status of a checkout id the platform no longer knows → 400 200.300.404',
    source: recorded(
      'testGetPaymentStatusAfterSuccess',
      'getPaymentStatus(9929656AD0B361BBC3AF31B3ECDCE28B): an id without its node part, paid more than 30 minutes ago',
    ),
    method: 'GET',
    path: '/v1/checkouts/9929656AD0B361BBC3AF31B3ECDCE28B/payment?entityId={entityId}',
    familyAnswer: {
      httpStatus: 400,
      resultCode: '200.300.404',
      notes:
        'recorded: "No payment session found for the requested id - are you mixing test/live servers or have you paid more than 30min ago?"',
    },
    expect: { status: 400, resultCode: '200.300.404' },
  },
  {
    name: 'payunity: query a payment by id',
    source: recorded(
      'testQueryPayment',
      'queryPayment: v1/query/{paymentId}?entityId=…, recorded 000.100.110',
    ),
    method: 'GET',
    path: '/v1/query/{paymentId}?entityId={entityId}',
    setup: { prior: 'prior: card DB' },
    familyAnswer: { httpStatus: 200, resultCode: '000.100.110', notes: 'recorded: the DB with its result' },
    expect: { status: 200, resultCode: '000.100.110', equals: { paymentType: 'DB' } },
  },
  {
    name: "payunity: query an id that is not one ('doesntexist') → 400 700.400.580",
    source: recorded(
      'testQueryPaymentUnknown',
      "queryPayment('doesntexist'), recorded [700.400.580] cannot find transaction",
    ),
    method: 'GET',
    path: '/v1/query/doesntexist?entityId={entityId}',
    familyAnswer: { httpStatus: 400, resultCode: '700.400.580', notes: 'recorded: cannot find transaction' },
    expect: { status: 400, resultCode: '700.400.580' },
  },
  {
    name: 'payunity: query by merchantTransactionId',
    source: recorded(
      'testQueryMerchant',
      'queryMerchant: v1/query?entityId=…&merchantTransactionId=…, recorded 000.000.100 with payments[]',
    ),
    method: 'GET',
    path: '/v1/query?entityId={entityId}&merchantTransactionId=payunity-{time}',
    setup: { prior: PAID },
    familyAnswer: {
      httpStatus: 200,
      resultCode: '000.000.100',
      notes: 'recorded: "successful request", payments[0] the DB',
    },
    expect: {
      status: 200,
      resultCode: '000.000.100',
      has: ['payments.0.id'],
      equals: { 'payments.0.paymentType': 'DB' },
      strings: true,
    },
  },
  {
    name: "payunity: query by a merchantTransactionId nobody used ('doesntexist') → 400 700.400.580",
    source: recorded(
      'testQueryMerchantUnknown',
      "queryMerchant('doesntexist'), recorded [700.400.580] cannot find transaction",
    ),
    method: 'GET',
    path: '/v1/query?entityId={entityId}&merchantTransactionId=doesntexist',
    familyAnswer: { httpStatus: 400, resultCode: '700.400.580', notes: 'recorded: cannot find transaction' },
    expect: { status: 400, resultCode: '700.400.580' },
  },
  {
    name: 'payunity: the widget script for a checkout',
    source: api('getPaymentScriptSrc: v1/paymentWidgets.js{?checkoutId}'),
    method: 'GET',
    path: '/v1/paymentWidgets.js?checkoutId={checkoutId}',
    setup: { prior: CHECKOUT, auth: 'none', note: 'a script tag: no credentials' },
    expect: { status: 200 },
  },
];
