/**
 * activemerchant's OPP gateway (lib/active_merchant/billing/gateways/opp.rb) as its remote test
 * (test/remote/gateways/remote_opp_test.rb) drives it against the family's test platform: every
 * request of its 15 tests, field by field in the order opp.rb builds them. What opp.rb does that
 * shapes the body:
 *   - names are written raw (`customParameters[SHOPPER_pluginId]`), values with CGI.escape;
 *   - a nil option is sent as an empty value (`descriptor=`, `billing.street2=`, `customer.birthDate=`);
 *   - the entity goes as `authentication.entityId` in the body, the token as a Bearer header;
 *   - `customer.givenName` is the card's first name (the test's `givenName:` key is not read),
 *     the SHOPPER_ custom parameters of the options are never sent (its regex has quotes in it);
 *   - RV sends `amount=` empty and no currency.
 * The card is the remote test's: 4200000000000000, 05 / this year + 2, holder Longbob Longsen.
 */
import type { Entry, Field, Source } from '../entry';

const REMOTE = 'test/remote/gateways/remote_opp_test.rb';
const source = (test: string, note = ''): Source => ({
  repo: 'activemerchant/active_merchant',
  path: REMOTE,
  note: `${test}${note === '' ? '' : `: ${note}`}`,
});

const card = (number: string): Field[] => [
  ['paymentBrand', 'VISA'],
  ['card.holder', 'Longbob Longsen'],
  ['card.number', number],
  ['card.expiryMonth', '05'],
  ['card.expiryYear', '{expiryYear}'],
  ['card.cvv', '123'],
];

/** add_invoice with the complete options: the test's name is the descriptor. */
const invoice = (amount: string, test: string): Field[] => [
  ['amount', amount],
  ['currency', 'EUR'],
  ['descriptor', test],
  ['merchantInvoiceId', 'Order {time}'],
  ['merchantTransactionId', 'active_merchant_test_complete {time}'],
];

/** add_invoice without options: nil descriptor and invoice id, a generated transaction id. */
const bareInvoice = (amount: string): Field[] => [
  ['amount', amount],
  ['currency', 'EUR'],
  ['descriptor', ''],
  ['merchantInvoiceId', ''],
  ['merchantTransactionId', '50b5c1763c20c456a6208f7831dd0a04'],
];

/** add_address and add_customer_data of @complete_request_options. */
const COMPLETE: Field[] = [
  ['billing.street1', '123 Test Street'],
  ['billing.street2', ''],
  ['billing.city', 'Test'],
  ['billing.state', 'TE'],
  ['billing.postcode', 'AB12CD'],
  ['billing.country', 'GB'],
  ['shipping.street1', 'My Street On Upiter, Apt 3.14/2.78'],
  ['shipping.street2', ''],
  ['shipping.city', 'Munich'],
  ['shipping.state', 'Bov'],
  ['shipping.postcode', '81675'],
  ['shipping.country', 'DE'],
  ['shipping.givenName', 'Muton'],
  ['shipping.surname', 'DeMicelis'],
  ['customer.merchantCustomerId', 'your merchant/customer id'],
  ['customer.givenName', 'Longbob'],
  ['customer.surname', 'Jones'],
  ['customer.birthDate', ''],
  ['customer.phone', '(?!?)555-5555'],
  ['customer.mobile', '(?!?)234-23423'],
  ['customer.email', 'jane@jones.com'],
  ['customer.companyName', 'JJ Ltd.'],
  ['customer.identificationDocType', 'PASSPORT'],
  ['customer.identificationDocId', 'FakeID2342431234123'],
  ['customer.ip', '101.102.103.104'],
];

const TAIL: Field[] = [
  ['customParameters[SHOPPER_pluginId]', 'activemerchant'],
  ['authentication.entityId', '{entityId}'],
];

const SUCCESS = { status: 200, resultCode: '000.100.110', has: ['id'] } as const;
/** The family's answer to the remote test's invalid card (unit test's failed_response: HTTP 400). */
const INVALID_CARD = { status: 400, resultCode: '100.100.101' } as const;

/** execute_dbpa with the complete options. */
const dbpa = (
  name: string,
  test: string,
  type: 'DB' | 'PA',
  number: string,
  expect: Entry['expect'],
): Entry => ({
  name,
  source: source(test),
  method: 'POST',
  path: '/v1/payments',
  encoding: 'raw-names',
  body: [['paymentType', type], ...invoice('1.00', test), ...card(number), ...COMPLETE, ...TAIL],
  expect,
});

/** execute_referencing: paymentType, add_invoice, the entity; on /v1/payments/{authorization}. */
const referencing = (
  name: string,
  test: string,
  type: 'CP' | 'RF' | 'RV',
  invoiceFields: Field[],
  prior: string | undefined,
  expect: Entry['expect'],
  path = '/v1/payments/{paymentId}',
): Entry => ({
  name,
  source: source(test, prior === undefined ? 'on @test_wrong_reference_id' : `after ${prior}`),
  method: 'POST',
  path,
  encoding: 'raw-names',
  body: [['paymentType', type], ...invoiceFields, ['authentication.entityId', '{entityId}']],
  ...(prior === undefined ? {} : { setup: { prior } }),
  expect,
});

const PURCHASE = 'activemerchant: purchase (complete options)';
const AUTHORIZE = 'activemerchant: authorize (complete options)';
const WRONG = '/v1/payments/8a8444494a0033a6014e12b371fb6a1e';
/** RV's add_invoice: amount(nil) is nil, sent empty; no currency. */
const voidInvoice = (test: string): Field[] => invoice('', test).filter(([name]) => name !== 'currency');

const GATEWAY = 'lib/active_merchant/billing/gateways/opp.rb';

export const ACTIVEMERCHANT: readonly Entry[] = [
  dbpa(PURCHASE, 'test_successful_purchase', 'DB', '4200000000000000', SUCCESS),
  {
    name: 'activemerchant: purchase without options',
    source: source(
      'test_successful_purchase_sans_options',
      'the body of opp_test.rb pre_scrubbed, recorded from the platform (its 2022 expiry made future)',
    ),
    method: 'POST',
    path: '/v1/payments',
    encoding: 'raw-names',
    body: [['paymentType', 'DB'], ...bareInvoice('1.00'), ...card('4200000000000000'), ...TAIL],
    expect: SUCCESS,
  },
  dbpa(AUTHORIZE, 'test_successful_authorize', 'PA', '4200000000000000', SUCCESS),
  referencing(
    'activemerchant: capture',
    'test_successful_capture',
    'CP',
    invoice('1.00', 'test_successful_capture'),
    AUTHORIZE,
    SUCCESS,
  ),
  referencing(
    'activemerchant: refund',
    'test_successful_refund',
    'RF',
    invoice('1.00', 'test_successful_refund'),
    PURCHASE,
    SUCCESS,
  ),
  referencing(
    'activemerchant: void of a purchase (amount= empty, no currency)',
    'test_successful_void',
    'RV',
    voidInvoice('test_successful_void'),
    PURCHASE,
    SUCCESS,
  ),
  referencing(
    'activemerchant: partial capture without options',
    'test_successful_partial_capture',
    'CP',
    bareInvoice('0.99'),
    AUTHORIZE,
    SUCCESS,
  ),
  referencing(
    'activemerchant: partial refund without options',
    'test_successful_partial_refund',
    'RF',
    bareInvoice('0.99'),
    PURCHASE,
    SUCCESS,
  ),
  dbpa(
    'activemerchant: verify, its authorization',
    'test_successful_verify',
    'PA',
    '4200000000000000',
    SUCCESS,
  ),
  referencing(
    'activemerchant: verify, its void',
    'test_successful_verify',
    'RV',
    voidInvoice('test_successful_verify'),
    'activemerchant: verify, its authorization',
    SUCCESS,
  ),
  dbpa(
    'activemerchant: purchase with an invalid card → 100.100.101',
    'test_failed_purchase',
    'DB',
    '4444444444444444',
    INVALID_CARD,
  ),
  dbpa(
    'activemerchant: authorize with an invalid card → 100.100.101',
    'test_failed_authorize',
    'PA',
    '4444444444444444',
    INVALID_CARD,
  ),
  referencing(
    'activemerchant: capture of an unknown id → 700.400.510',
    'test_failed_capture',
    'CP',
    bareInvoice('1.00'),
    undefined,
    { status: 400, resultCode: '700.400.510' },
    WRONG,
  ),
  referencing(
    'activemerchant: refund of an unknown id → 600.200.500',
    'test_failed_refund',
    'RF',
    bareInvoice('1.00'),
    undefined,
    { status: 400, resultCode: '600.200.500' },
    WRONG,
  ),
  referencing(
    'activemerchant: void of an unknown id → 700.400.530',
    'test_failed_void',
    'RV',
    voidInvoice('test_failed_void'),
    undefined,
    { status: 400, resultCode: '700.400.530' },
    WRONG,
  ),
  {
    name: 'activemerchant: transcript scrubbing, the answer carries no card number',
    source: source('test_transcript_scrubbing', 'purchase without options; the answer must not hold the PAN'),
    method: 'POST',
    path: '/v1/payments',
    encoding: 'raw-names',
    body: [['paymentType', 'DB'], ...bareInvoice('1.00'), ...card('4200000000000000'), ...TAIL],
    expect: { ...SUCCESS, omits: ['4200000000000000'] },
  },
  {
    name: 'activemerchant: store (a stand-alone registration)',
    source: {
      repo: 'activemerchant/active_merchant',
      path: 'test/unit/gateways/opp_test.rb',
      note: 'test_successful_store: execute_store on v1/registrations, recorded 000.100.110',
    },
    method: 'POST',
    path: '/v1/registrations',
    encoding: 'raw-names',
    body: [...card('4200000000000000'), ...TAIL],
    familyAnswer: {
      httpStatus: 200,
      resultCode: '000.100.110',
      notes:
        'opp_test.rb successful_store_response: "Request successfully processed in \'Merchant in Integrator Test Mode\'"',
    },
    expect: SUCCESS,
  },
  {
    name: 'activemerchant: store of an invalid card → 100.100.101',
    source: {
      repo: 'activemerchant/active_merchant',
      path: 'test/unit/gateways/opp_test.rb',
      note: 'test_failed_store: execute_store of @invalid_card (4444444444444444)',
    },
    method: 'POST',
    path: '/v1/registrations',
    encoding: 'raw-names',
    body: [...card('4444444444444444'), ...TAIL],
    familyAnswer: {
      httpStatus: 400,
      resultCode: '100.100.101',
      notes: 'opp_test.rb failed_store_response: "invalid creditcard, bank account number or bank name"',
    },
    expect: INVALID_CARD,
  },
  {
    name: 'activemerchant: purchase with risk_workflow (PA.CP)',
    source: {
      repo: 'activemerchant/active_merchant',
      path: GATEWAY,
      note: 'purchase: options[:risk_workflow] makes the type PA.CP (the remote test has it commented out)',
    },
    method: 'POST',
    path: '/v1/payments',
    encoding: 'raw-names',
    body: [['paymentType', 'PA.CP'], ...bareInvoice('1.00'), ...card('4200000000000000'), ...TAIL],
    expect: SUCCESS,
  },
  {
    name: 'activemerchant: purchase with create_registration',
    source: {
      repo: 'activemerchant/active_merchant',
      path: GATEWAY,
      note: 'add_options: createRegistration = options[:create_registration] (true, written "true")',
    },
    method: 'POST',
    path: '/v1/payments',
    encoding: 'raw-names',
    body: [
      ['paymentType', 'DB'],
      ...bareInvoice('1.00'),
      ...card('4200000000000000'),
      ['createRegistration', 'true'],
      ...TAIL,
    ],
    expect: { ...SUCCESS, has: ['id', 'registrationId'] },
  },
  {
    name: 'activemerchant: purchase with a stored registration (the payment a String)',
    source: {
      repo: 'activemerchant/active_merchant',
      path: GATEWAY,
      note: 'purchase(money, registration_id): add_payment_method returns at once for a String, build_url → registrations/{id}/payments',
    },
    method: 'POST',
    path: '/v1/registrations/{registrationId}/payments',
    encoding: 'raw-names',
    body: [['paymentType', 'DB'], ...bareInvoice('1.00'), ...TAIL],
    setup: { prior: 'activemerchant: store (a stand-alone registration)' },
    expect: SUCCESS,
  },
];
