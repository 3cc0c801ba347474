/**
 * The acceptance list of issue 29: requests real integrations of the family send that the gateway
 * refused or answered differently. Each names the public client it was read from.
 */
import type { Entry, Field, Source } from '../entry';
import { ACCEPTED_LATER, VOUCHER } from './curl';
import { TEST_CARD } from './priors';

const ACTIVEMERCHANT: Source = {
  repo: 'activemerchant/active_merchant',
  path: 'lib/active_merchant/billing/gateways/opp.rb',
  note: '',
};
const ACI: Source = {
  repo: 'juspay/hyperswitch',
  path: 'crates/hyperswitch_connectors/src/connectors/aci/transformers.rs',
  note: '',
};
const from = (base: Source, note: string): Source => ({ ...base, note });

/** The family's test platform answers success in test mode as 000.100.110 (INTERNAL). */
const SUCCESS = { status: 200, resultCode: '000.100.110' } as const;
/** A redirect method's first answer: pending, the shopper sent to the provider. */
const PENDING_REDIRECT = { status: 200, resultCode: '000.200.000', has: ['id', 'redirect.url'] } as const;

const debit = (amount: string, currency: string): Field[] => [
  ['entityId', '{entityId}'],
  ['amount', amount],
  ['currency', currency],
  ['paymentType', 'DB'],
];

/** A card DB with the test card and `extra` fields after it. */
const cardDebit = (name: string, source: Source, extra: Field[], expect: Entry['expect']): Entry => ({
  name,
  source,
  method: 'POST',
  path: '/v1/payments',
  body: [...debit('10.00', 'EUR'), ...TEST_CARD, ...extra],
  expect,
});

/** An online transfer with its optional bank hints (DECISIONS: passed to the provider, never required). */
const transfer = (brand: string, currency: string, hints: Field[], note: string): Entry => ({
  name: `${brand} with bank hints ${hints.map(([n]) => n).join(', ')} → pending with a redirect`,
  source: from(ACI, note),
  method: 'POST',
  path: '/v1/payments',
  body: [
    ...debit('10.00', currency),
    ['paymentBrand', brand],
    ...hints,
    ['shopperResultUrl', 'https://shop.example/return'],
  ],
  expect: PENDING_REDIRECT,
});

/**
 * The family's brands beyond the cards, each with the data its method needs at least and its
 * flow's first answer in test mode: pending with a redirect (online transfers, accounts), success
 * at once (a virtual account, a direct debit), pending until the provider accepts it (invoices),
 * pending with the voucher answered (a boleto).
 */
const BRANDS: readonly (readonly [
  brand: string,
  currency: string,
  extra: Field[],
  expect: Entry['expect'],
])[] = [
  ['EPS', 'EUR', [], PENDING_REDIRECT],
  ['GIROPAY', 'EUR', [], PENDING_REDIRECT],
  ['IDEAL', 'EUR', [], PENDING_REDIRECT],
  ['TRUSTLY', 'EUR', [], PENDING_REDIRECT],
  ['PRZELEWY', 'PLN', [['customer.email', 'jane@example.com']], PENDING_REDIRECT],
  ['INTERAC_ONLINE', 'CAD', [['customer.email', 'jane@example.com']], PENDING_REDIRECT],
  ['EFT', 'ZAR', [], PENDING_REDIRECT],
  ['POLI', 'AUD', [], PENDING_REDIRECT],
  ['BLIK', 'PLN', [], PENDING_REDIRECT],
  ['ALIPAY', 'EUR', [], PENDING_REDIRECT],
  ['PAYSAFECARD', 'EUR', [], PENDING_REDIRECT],
  ['STC_PAY', 'SAR', [['virtualAccount.accountId', '966501234567']], SUCCESS],
  ['KLARNA_INVOICE', 'EUR', [], ACCEPTED_LATER],
  ['KLARNA_INSTALLMENTS', 'EUR', [], ACCEPTED_LATER],
  ['PAYOLUTION_INVOICE', 'EUR', [], ACCEPTED_LATER],
  ['PAYOLUTION_INS', 'EUR', [], ACCEPTED_LATER],
  [
    'PAYOLUTION_ELV',
    'EUR',
    [
      ['bankAccount.holder', 'Jane Jones'],
      ['bankAccount.iban', 'DE89370400440532013000'],
      ['bankAccount.bic', 'COBADEFFXXX'],
    ],
    SUCCESS,
  ],
  ['BOLETO', 'BRL', [], VOUCHER],
];

const brandEntry = ([brand, currency, extra, expect]: (typeof BRANDS)[number]): Entry => ({
  name: `${brand} is a known brand: its flow's answer, never 600.200.100`,
  source: from(
    ACI,
    "PaymentBrand enum (EPS … ALIPAY) and the issue's list of the family's common brands; the request is the ACI connector's redirect shape: txn details, paymentBrand, shopperResultUrl",
  ),
  method: 'POST',
  path: '/v1/payments',
  body: [
    ...debit('10.00', currency),
    ['paymentBrand', brand],
    ...extra,
    ['shopperResultUrl', 'https://shop.example/return'],
  ],
  expect,
});

/** HyperPay's official COPYandPAY example, quoted whole in a merchant's notes. */
const INTEGRITY_SAMPLE: Source = {
  repo: 'MeidoSUD/online_learning_platform',
  path: 'tests/HYPERPAY_CODE_COMPARISON.md',
  note: "HyperPay's official example: entityId, amount=92.00, currency=SAR, paymentType=DB, integrity=true",
};
/** A subresource-integrity hash of the widget script, as the family answers it. */
const SRI = '^sha384-[A-Za-z0-9+/]{64}$';

/** An id that names no transaction of the caller: activemerchant's `@test_wrong_reference_id`. */
const WRONG_ID = '8a8444494a0033a6014e12b371fb6a1e';
const REMOTE_TEST = from(
  { ...ACTIVEMERCHANT, path: 'test/remote/gateways/remote_opp_test.rb' },
  '@test_wrong_reference_id',
);

const referencing = (paymentType: string, code: NonNullable<Entry['expect']['resultCode']>, note: string) =>
  ({
    name: `${paymentType} on an unknown id → 400 ${code}`,
    source: { ...REMOTE_TEST, note: `${REMOTE_TEST.note}; ${note}` },
    method: 'POST',
    path: `/v1/payments/${WRONG_ID}`,
    body: [
      ['entityId', '{entityId}'],
      ['paymentType', paymentType],
      ...(paymentType === 'RV'
        ? []
        : ([
            ['amount', '1.00'],
            ['currency', 'EUR'],
          ] as Field[])),
    ],
    familyAnswer: { notes: `the remote test asserts the message of ${code} (${note})` },
    expect: { status: 400, resultCode: code },
  }) satisfies Entry;

export const ISSUE_29: readonly Entry[] = [
  {
    name: 'checkout with entityId, amount, currency, paymentType only → 000.200.100',
    source: {
      repo: 'digital-blueprint/relay-mono-connector-payunity-bundle',
      path: 'tests/PayUnityTest.php',
      note: "testPrepareCheckout: prepareCheckout('42.42', 'EUR', DB), recorded answer 000.200.100",
    },
    method: 'POST',
    path: '/v1/checkouts',
    body: debit('42.42', 'EUR'),
    familyAnswer: { httpStatus: 200, resultCode: '000.200.100', notes: 'tests/PayUnityTest.php $BODY' },
    expect: { status: 200, resultCode: '000.200.100', has: ['id', 'ndc'], strings: true },
  },
  cardDebit(
    'shipping.givenName and shipping.surname with a shipping address → accepted and echoed',
    from(ACTIVEMERCHANT, "add_address: the shipping name 'Muton DeMicelis' split into givenName and surname"),
    [
      ['shipping.street1', 'My Street On Upiter, Apt 3.14/2.78'],
      ['shipping.city', 'Munich'],
      ['shipping.state', 'Bov'],
      ['shipping.postcode', '81675'],
      ['shipping.country', 'DE'],
      ['shipping.givenName', 'Muton'],
      ['shipping.surname', 'DeMicelis'],
    ],
    { ...SUCCESS, equals: { 'shipping.givenName': 'Muton', 'shipping.surname': 'DeMicelis' } },
  ),
  cardDebit(
    'external 3-D Secure 1 values threeDSecure.xid, eci, verificationId → accepted',
    from(
      ACTIVEMERCHANT,
      'add_3d_secure: eci, verificationId (cavv), xid; values of the unit test, real-shaped',
    ),
    [
      ['threeDSecure.xid', 'CAACCVVUlwCXUyhQNlSXAAAAAAA='],
      ['threeDSecure.eci', '05'],
      ['threeDSecure.verificationId', 'AAACAgSRBklmQCFgMpEGAAAAAAA='],
    ],
    SUCCESS,
  ),
  {
    name: 'SOFORTUEBERWEISUNG with bankAccount.country=AT → pending with a redirect',
    source: {
      repo: 'vdbelt/omnipay-oppwa',
      path: 'tests/Mock/PurchaseSuccess.txt',
      note: 'a recorded SOFORT DB: bankAccount.country AT echoed, redirect to the provider',
    },
    method: 'POST',
    path: '/v1/payments',
    body: [
      ...debit('10.00', 'EUR'),
      ['paymentBrand', 'SOFORTUEBERWEISUNG'],
      ['bankAccount.country', 'AT'],
      ['shopperResultUrl', 'https://shop.example/return'],
    ],
    familyAnswer: {
      httpStatus: 200,
      resultCode: '000.200.000',
      notes: 'tests/Mock/PurchaseSuccess.txt: "transaction pending", redirect.url, bankAccount.country AT',
    },
    expect: { ...PENDING_REDIRECT, equals: { 'bankAccount.country': 'AT' } },
  },
  transfer('EPS', 'EUR', [['bankAccount.country', 'AT']], 'BankRedirectData::Eps: bankAccount.country'),
  transfer(
    'IDEAL',
    'EUR',
    [
      ['bankAccount.country', 'NL'],
      ['bankAccount.bankName', 'ing'],
    ],
    'BankRedirectData::Ideal: bankAccount.country, bankAccount.bankName (BankNames in snake case)',
  ),
  transfer(
    'GIROPAY',
    'EUR',
    [
      ['bankAccount.country', 'DE'],
      ['bankAccount.bic', 'COBADEFFXXX'],
      ['bankAccount.iban', 'DE89370400440532013000'],
    ],
    'BankRedirectData::Giropay: bankAccount.country, bic, iban',
  ),
  transfer('EFT', 'ZAR', [['bankAccount.country', 'ZA']], 'BankRedirectData::Eft: bankAccount.country'),
  transfer(
    'INTERAC_ONLINE',
    'CAD',
    [
      ['bankAccount.country', 'CA'],
      ['customer.email', 'jane@example.com'],
    ],
    'BankRedirectData::Interac: bankAccount.country, customer.email',
  ),
  cardDebit(
    'customer.phone=(555)555-5555 → accepted',
    {
      repo: 'activemerchant/active_merchant',
      path: 'test/test_helper.rb',
      note: "address(): phone '(555)555-5555', the national format shops send",
    },
    [['customer.phone', '(555)555-5555']],
    SUCCESS,
  ),
  cardDebit(
    'customer.mobile=(555) 555-5555 → accepted',
    {
      repo: 'activemerchant/active_merchant',
      path: 'test/test_helper.rb',
      note: "address(): phone '(555)555-5555', here with the space national formats also carry",
    },
    [['customer.mobile', '(555) 555-5555']],
    SUCCESS,
  ),
  cardDebit(
    'customer.ip alone → accepted',
    from(
      { ...ACTIVEMERCHANT, path: 'lib/active_merchant/billing/gateways/opp.rb' },
      'add_customer_data: customer.ip = options[:ip] without the other customer fields',
    ),
    [['customer.ip', '203.0.113.7']],
    SUCCESS,
  ),
  cardDebit(
    'customer.email alone → accepted',
    from(ACI, 'BankRedirectionPMData: customer.email sent alone (Przelewy, Interac)'),
    [['customer.email', 'jane@example.com']],
    SUCCESS,
  ),
  ...BRANDS.map(brandEntry),
  {
    name: 'MIT repeat on a stand-alone registration (standingInstruction REPEATED/UNSCHEDULED/MIT, recurringType) → success',
    source: from(
      { ...ACI, path: 'crates/hyperswitch_connectors/src/connectors/aci/transformers.rs' },
      'get_instruction_details (mandate_id): REPEATED, UNSCHEDULED, MIT; get_recurring_type: REPEATED; URL v1/registrations/{mandate_id}/payments (aci.rs)',
    ),
    method: 'POST',
    path: '/v1/registrations/{registrationId}/payments',
    body: [
      ...debit('10.00', 'USD'),
      ['standingInstruction.mode', 'REPEATED'],
      ['standingInstruction.type', 'UNSCHEDULED'],
      ['standingInstruction.source', 'MIT'],
      ['recurringType', 'REPEATED'],
    ],
    setup: { prior: 'prior: registration', note: 'the mandate: a stand-alone registration of a card' },
    expect: SUCCESS,
  },
  {
    name: 'registration with amount=1.00 and currency=SAR → accepted',
    source: {
      repo: 'ampeco/omnipay-hyperpay',
      path: 'src/Message/CreateCardRequest.php',
      note: 'HyperPay (SAR) register-card sends amount and currency with the card to register',
    },
    method: 'POST',
    path: '/v1/registrations',
    body: [['entityId', '{entityId}'], ['amount', '1.00'], ['currency', 'SAR'], ...TEST_CARD],
    expect: { ...SUCCESS, has: ['id'] },
  },
  cardDebit(
    'every leaf of a payment answer is a string; card.regulatedFlag is "Y" or "N"',
    from(ACI, 'AciPaymentsResponse and the webhook payload read every field as a String'),
    [],
    { ...SUCCESS, strings: true, matches: { 'card.regulatedFlag': '^[YN]$' } },
  ),
  referencing(
    'CP',
    '700.400.510',
    'test_failed_capture: "capture needs at least one successful transaction"',
  ),
  referencing('RV', '700.400.530', 'test_failed_void: "reversal needs at least one successful transaction"'),
  referencing('RF', '600.200.500', 'test_failed_refund: "Invalid payment data"'),
  {
    name: 'query of an unknown id → 400 700.400.580',
    source: {
      repo: 'digital-blueprint/relay-mono-connector-payunity-bundle',
      path: 'tests/PayUnityTest.php',
      note: 'testQueryPaymentUnknown: GET v1/query/{paymentId}?entityId=…, recorded [700.400.580] cannot find transaction',
    },
    method: 'GET',
    path: `/v1/query/${WRONG_ID}?entityId={entityId}`,
    familyAnswer: { httpStatus: 400, resultCode: '700.400.580', notes: 'tests/PayUnityTest.php' },
    expect: { status: 400, resultCode: '700.400.580' },
  },
  {
    name: 'status of an unknown checkout → 400 200.300.404',
    source: {
      repo: 'digital-blueprint/relay-mono-connector-payunity-bundle',
      path: 'tests/PayUnityTest.php',
      note: 'testGetPaymentStatusAfterSuccess: "No payment session found for the requested id"',
    },
    method: 'GET',
    path: '/v1/checkouts/0F1E2D3C4B5A69788796A5B4C3D2E1F0.uat01-vm-tx03/payment?entityId={entityId}',
    familyAnswer: { httpStatus: 400, resultCode: '200.300.404', notes: 'tests/PayUnityTest.php' },
    expect: { status: 400, resultCode: '200.300.404' },
  },
  {
    name: "integrity=true on a checkout → the widget script's sha384 hash",
    source: INTEGRITY_SAMPLE,
    method: 'POST',
    path: '/v1/checkouts',
    encoding: 'raw',
    body: [
      ['entityId', '{entityId}'],
      ['amount', '92.00'],
      ['currency', 'SAR'],
      ['paymentType', 'DB'],
      ['integrity', 'true'],
    ],
    expect: { status: 200, resultCode: '000.200.100', matches: { integrity: SRI } },
  },
  cardDebit(
    "integrity=true on a payment → the widget script's sha384 hash",
    {
      ...INTEGRITY_SAMPLE,
      note: "the issue's item: shops send integrity=true with the same parameters on POST /v1/payments",
    },
    [['integrity', 'true']],
    { ...SUCCESS, matches: { integrity: SRI } },
  ),
];
