/**
 * Hyperswitch's ACI connector (crates/hyperswitch_connectors/src/connectors/aci.rs and
 * aci/transformers.rs): the request of each flow as serde_urlencoded writes its structs (fields
 * in declaration order, `None` left out, `Some("")` sent empty, brackets percent-encoded), with the
 * data of Hyperswitch's Cypress configuration for ACI (cypress-tests/cypress/e2e/configs/Payment/
 * Aci.js), whose expected statuses were recorded against the family's test platform.
 */
import type { Entry, Field, Source } from '../entry';

const TRANSFORMERS = 'crates/hyperswitch_connectors/src/connectors/aci/transformers.rs';
const CYPRESS = 'cypress-tests/cypress/e2e/configs/Payment/Aci.js';
const source = (note: string, path = TRANSFORMERS): Source => ({ repo: 'juspay/hyperswitch', path, note });
const cypress = (status: string, resultCode?: string): Entry['familyAnswer'] => ({
  ...(resultCode === undefined ? {} : { resultCode }),
  notes: `${CYPRESS}: the flow's recorded outcome "${status}"${resultCode === undefined ? '' : ` (${resultCode})`}`,
});

/** The return address Hyperswitch gives every authorize (router_return_url). */
const RETURN_URL = 'https://sandbox.hyperswitch.io/payments/pay_fidelity/merchant_1/redirect/response/aci';

/** TransactionDetails: entityId, amount (StringMajorUnit), currency, paymentType. */
const txn = (amount: string, currency: string, type: string): Field[] => [
  ['entityId', '{entityId}'],
  ['amount', amount],
  ['currency', currency],
  ['paymentType', type],
];

/** CardDetails: number, holder, expiry, cvv, then the brand from the card network. */
const card = (number: string, holder: string, brand: string): Field[] => [
  ['card.number', number],
  ['card.holder', holder],
  ['card.expiryMonth', '01'],
  ['card.expiryYear', '2045'],
  ['card.cvv', '737'],
  ['paymentBrand', brand],
];

/** Cypress's successfulNo3DSCardDetails; the holder is the billing name (get_optional_billing_full_name). */
const NO_3DS_CARD = card('4242424242424242', 'joseph Doe', 'VISA');
/** Cypress's successfulThreeDSTestCardDetails, a Mastercard. */
const THREE_DS_CARD = card('5386024192625914', 'joseph Doe', 'MASTER');

const SUCCESS = { status: 200, resultCode: '000.100.110', has: ['id'], strings: true } as const;
const PENDING_REDIRECT = {
  status: 200,
  resultCode: '000.200.000',
  has: ['id', 'redirect.url'],
  strings: true,
} as const;

const authorize = (
  name: string,
  type: 'DB' | 'PA',
  note: string,
  fields: Field[],
  expect: Entry['expect'],
  answer: Entry['familyAnswer'],
): Entry => ({
  name,
  source: source(note),
  method: 'POST',
  path: '/v1/payments',
  body: [...txn('60.00', 'EUR', type), ...fields],
  familyAnswer: answer,
  expect,
});

const NO_3DS_DB = 'hyperswitch: card, no 3-D Secure, automatic capture (DB)';
const NO_3DS_PA = 'hyperswitch: card, no 3-D Secure, manual capture (PA)';
const SETUP_MANDATE = 'hyperswitch: setup mandate (a registration, paymentBrand sent twice)';
const CIT = 'hyperswitch: card saved for off-session use (CIT INITIAL, createRegistration)';

/** BankRedirectionPMData in order: brand, bank account hints, billing.country, email, customer id, transaction id. */
const redirect = (name: string, note: string, fields: Field[], answer: Entry['familyAnswer']): Entry => ({
  name,
  source: source(note),
  method: 'POST',
  path: '/v1/payments',
  body: [...txn('60.00', 'EUR', 'DB'), ...fields, ['shopperResultUrl', RETURN_URL]],
  familyAnswer: answer,
  expect: PENDING_REDIRECT,
});

/** The test account of the Cypress run lacked the brand: an answer about its configuration, not the request. */
const NOT_CONFIGURED = (code: string, status = 'failed') => ({
  resultCode: code,
  notes: `${CYPRESS}: "${status}" ${code} — the Cypress merchant account is not set up for this brand; the request's shape was not refused`,
});

const mit = (
  name: string,
  type: 'DB' | 'PA',
  prior: string,
  initialTransactionId: string,
  note: string,
): Entry => ({
  name,
  source: source(`${note}; URL v1/registrations/{mandate_id}/payments (aci.rs get_url)`),
  method: 'POST',
  path: '/v1/registrations/{registrationId}/payments',
  body: [
    ...txn('60.00', 'EUR', type),
    ['standingInstruction.mode', 'REPEATED'],
    ['standingInstruction.type', 'UNSCHEDULED'],
    ['standingInstruction.source', 'MIT'],
    ['standingInstruction.initialTransactionId', initialTransactionId],
    ['shopperResultUrl', RETURN_URL],
    ['recurringType', 'REPEATED'],
  ],
  setup: { prior },
  familyAnswer: cypress(type === 'DB' ? 'succeeded' : 'requires_capture'),
  expect: SUCCESS,
});

export const HYPERSWITCH_ACI: readonly Entry[] = [
  authorize(
    NO_3DS_DB,
    'DB',
    'AciPaymentsRequest for a card',
    [...NO_3DS_CARD, ['shopperResultUrl', RETURN_URL]],
    SUCCESS,
    cypress('succeeded'),
  ),
  authorize(
    NO_3DS_PA,
    'PA',
    'AciPaymentsRequest for a card, capture_method manual',
    [...NO_3DS_CARD, ['shopperResultUrl', RETURN_URL]],
    SUCCESS,
    cypress('requires_capture'),
  ),
  authorize(
    'hyperswitch: card with 3-D Secure, automatic capture → the challenge',
    'DB',
    'three_ds_two_enrolled: customParameters[3DS2_enrolled]=true when the payment is 3-D Secure',
    [...THREE_DS_CARD, ['shopperResultUrl', RETURN_URL], ['customParameters[3DS2_enrolled]', 'true']],
    PENDING_REDIRECT,
    cypress('requires_customer_action'),
  ),
  authorize(
    'hyperswitch: card with 3-D Secure, manual capture → the challenge',
    'PA',
    'three_ds_two_enrolled with capture_method manual',
    [...THREE_DS_CARD, ['shopperResultUrl', RETURN_URL], ['customParameters[3DS2_enrolled]', 'true']],
    PENDING_REDIRECT,
    cypress('requires_customer_action'),
  ),
  ...(
    [
      ['capture', 'CP', '60.00', NO_3DS_PA, 'AciCaptureRequest: TransactionDetails with paymentType CP'],
      ['partial capture', 'CP', '20.00', NO_3DS_PA, 'AciCaptureRequest, amount_to_capture 2000'],
    ] as const
  ).map(
    ([what, type, amount, prior, note]): Entry => ({
      name: `hyperswitch: ${what}`,
      source: source(`${note}; URL v1/payments/{connector_transaction_id} (aci.rs)`),
      method: 'POST',
      path: '/v1/payments/{paymentId}',
      body: txn(amount, 'EUR', type),
      setup: { prior },
      familyAnswer: cypress(what === 'capture' ? 'succeeded' : 'partially_captured'),
      expect: SUCCESS,
    }),
  ),
  {
    name: 'hyperswitch: void',
    source: source('AciCancelRequest: entityId, paymentType RV; URL v1/payments/{id} (aci.rs)'),
    method: 'POST',
    path: '/v1/payments/{paymentId}',
    body: [
      ['entityId', '{entityId}'],
      ['paymentType', 'RV'],
    ],
    setup: { prior: NO_3DS_PA },
    expect: SUCCESS,
  },
  ...(
    [
      ['refund', '60.00', 'succeeded'],
      ['partial refund', '20.00', 'succeeded'],
    ] as const
  ).map(
    ([what, amount, status]): Entry => ({
      name: `hyperswitch: ${what}`,
      source: source('AciRefundRequest: amount, currency, paymentType RF, entityId (in this order)'),
      method: 'POST',
      path: '/v1/payments/{paymentId}',
      body: [
        ['amount', amount],
        ['currency', 'EUR'],
        ['paymentType', 'RF'],
        ['entityId', '{entityId}'],
      ],
      setup: { prior: NO_3DS_DB },
      familyAnswer: cypress(status),
      expect: SUCCESS,
    }),
  ),
  {
    name: 'hyperswitch: payment sync',
    source: source(
      'PSync: GET v1/payments/{id}?entityId=…',
      'crates/hyperswitch_connectors/src/connectors/aci.rs',
    ),
    method: 'GET',
    path: '/v1/payments/{paymentId}?entityId={entityId}',
    setup: { prior: NO_3DS_DB },
    expect: { ...SUCCESS, equals: { paymentType: 'DB', amount: '60.00', currency: 'EUR' } },
  },
  {
    name: SETUP_MANDATE,
    source: source(
      'AciMandateRequest: entityId, paymentBrand, then CardDetails (which ends with paymentBrand again); URL v1/registrations',
    ),
    method: 'POST',
    path: '/v1/registrations',
    body: [
      ['entityId', '{entityId}'],
      ['paymentBrand', 'VISA'],
      ...card('4242424242424242', 'morino', 'VISA'),
    ],
    familyAnswer: cypress('succeeded'),
    expect: SUCCESS,
  },
  authorize(
    CIT,
    'DB',
    'get_instruction_details (customer_acceptance, off_session): INITIAL, UNSCHEDULED, CIT, createRegistration; recurringType INITIAL',
    [
      ...NO_3DS_CARD,
      ['standingInstruction.mode', 'INITIAL'],
      ['standingInstruction.type', 'UNSCHEDULED'],
      ['standingInstruction.source', 'CIT'],
      ['createRegistration', 'true'],
      ['shopperResultUrl', RETURN_URL],
      ['recurringType', 'INITIAL'],
    ],
    { ...SUCCESS, has: ['id', 'registrationId'] },
    cypress('succeeded'),
  ),
  mit(
    'hyperswitch: MIT on the mandate, initialTransactionId = the registration',
    'DB',
    SETUP_MANDATE,
    '{registrationId}',
    "get_instruction_details (mandate_id): REPEATED, UNSCHEDULED, MIT, initialTransactionId from the mandate metadata (the setup answer's id)",
  ),
  mit(
    'hyperswitch: MIT after the CIT payment, initialTransactionId = that payment',
    'DB',
    CIT,
    '{paymentId}',
    "get_instruction_details (mandate_id): the mandate metadata keeps the CIT payment's id",
  ),
  mit(
    'hyperswitch: MIT on the mandate, manual capture (PA)',
    'PA',
    SETUP_MANDATE,
    '{registrationId}',
    'MITManualCapture',
  ),
  redirect(
    'hyperswitch: EPS',
    'BankRedirectData::Eps: bankAccount.country from the billing address (AT)',
    [
      ['paymentBrand', 'EPS'],
      ['bankAccount.country', 'AT'],
    ],
    NOT_CONFIGURED('800.900.300'),
  ),
  redirect(
    'hyperswitch: GIROPAY with empty bic and iban',
    'BankRedirectData::Giropay: Cypress sends bank_account_bic "" and bank_account_iban "", written as empty values',
    [
      ['paymentBrand', 'GIROPAY'],
      ['bankAccount.country', 'NL'],
      ['bankAccount.bic', ''],
      ['bankAccount.iban', ''],
    ],
    NOT_CONFIGURED('800.900.300'),
  ),
  redirect(
    'hyperswitch: IDEAL with bankAccount.bankName',
    'BankRedirectData::Ideal: bankAccount.country, bankAccount.bankName (BankNames, snake case)',
    [
      ['paymentBrand', 'IDEAL'],
      ['bankAccount.country', 'NL'],
      ['bankAccount.bankName', 'ing'],
    ],
    cypress('requires_customer_action'),
  ),
  redirect(
    'hyperswitch: SOFORTUEBERWEISUNG',
    'BankRedirectData::Sofort: bankAccount.country from the billing address (NL)',
    [
      ['paymentBrand', 'SOFORTUEBERWEISUNG'],
      ['bankAccount.country', 'NL'],
    ],
    NOT_CONFIGURED('800.900.300'),
  ),
  redirect(
    'hyperswitch: PRZELEWY with customer.email alone',
    'BankRedirectData::Przelewy24: customer.email only',
    [
      ['paymentBrand', 'PRZELEWY'],
      ['customer.email', 'guest@juspay.in'],
    ],
    NOT_CONFIGURED('200.100.103'),
  ),
  redirect(
    'hyperswitch: INTERAC_ONLINE',
    'BankRedirectData::Interac: bankAccount.country and customer.email',
    [
      ['paymentBrand', 'INTERAC_ONLINE'],
      ['bankAccount.country', 'NL'],
      ['customer.email', 'guest@juspay.in'],
    ],
    NOT_CONFIGURED('600.200.500'),
  ),
  redirect(
    'hyperswitch: TRUSTLY',
    'BankRedirectData::Trustly: billing.country, customer.merchantCustomerId, merchantTransactionId',
    [
      ['paymentBrand', 'TRUSTLY'],
      ['billing.country', 'NL'],
      ['customer.merchantCustomerId', 'cus_fidelity'],
      ['merchantTransactionId', 'pay_fidelity_1'],
    ],
    undefined,
  ),
  redirect(
    'hyperswitch: EFT',
    'BankRedirectData::Eft: bankAccount.country',
    [
      ['paymentBrand', 'EFT'],
      ['bankAccount.country', 'ZA'],
    ],
    NOT_CONFIGURED('200.300.404'),
  ),
  redirect(
    'hyperswitch: ALIPAY',
    'WalletData::AliPayRedirect: WalletPMData, paymentBrand ALIPAY only',
    [['paymentBrand', 'ALIPAY']],
    undefined,
  ),
  authorize(
    'hyperswitch: network token',
    'DB',
    'AciNetworkTokenData: tokenAccount.type NETWORK, number, expiry, cryptogram, paymentBrand',
    [
      ['tokenAccount.type', 'NETWORK'],
      ['tokenAccount.number', '4200000000000000'],
      ['tokenAccount.expiryMonth', '01'],
      ['tokenAccount.expiryYear', '2045'],
      ['tokenAccount.cryptogram', 'AgAAAAAAAIR8CQrXcIhbQAAAAAA='],
      ['paymentBrand', 'VISA'],
      ['shopperResultUrl', RETURN_URL],
    ],
    SUCCESS,
    undefined,
  ),
];
