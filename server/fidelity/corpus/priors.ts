/**
 * What entries need made before them (`setup.prior`): a card payment, a registration, a checkout,
 * each with the gateway's approving test card (README, Test cards). Not entries of the corpus
 * themselves: nothing the family sent, only the gateway's own way to get an id to reference.
 */
import type { Entry, Field } from '../entry';

/** The gateway's approving Visa test card, with a future expiry. */
export const TEST_CARD: readonly Field[] = [
  ['paymentBrand', 'VISA'],
  ['card.number', '4200000000000000'],
  ['card.holder', 'Jane Jones'],
  ['card.expiryMonth', '05'],
  ['card.expiryYear', '{expiryYear}'],
  ['card.cvv', '123'],
];

const source = {
  repo: 'activemerchant/active_merchant',
  path: 'test/remote/gateways/remote_opp_test.rb',
  note: 'the remote test card 4200000000000000 (the family test card the gateway also approves)',
};

const cardPayment = (paymentType: 'PA' | 'DB'): Entry => ({
  name: `prior: card ${paymentType}`,
  source,
  method: 'POST',
  path: '/v1/payments',
  body: [
    ['entityId', '{entityId}'],
    ['amount', '10.00'],
    ['currency', 'EUR'],
    ['paymentType', paymentType],
    ...TEST_CARD,
  ],
  expect: { status: 200, resultCode: '000.100.110' },
});

export const PRIORS: readonly Entry[] = [
  cardPayment('PA'),
  cardPayment('DB'),
  {
    name: 'prior: registration',
    source,
    method: 'POST',
    path: '/v1/registrations',
    body: [['entityId', '{entityId}'], ...TEST_CARD],
    expect: { status: 200, resultCode: '000.100.110' },
  },
  {
    name: 'prior: checkout',
    source: {
      repo: 'digital-blueprint/relay-mono-connector-payunity-bundle',
      path: 'src/PayUnity/PayUnityApi.php',
      note: 'prepareCheckout: entityId, amount, currency, paymentType',
    },
    method: 'POST',
    path: '/v1/checkouts',
    body: [
      ['entityId', '{entityId}'],
      ['amount', '42.42'],
      ['currency', 'EUR'],
      ['paymentType', 'DB'],
    ],
    expect: { status: 200, resultCode: '000.200.100' },
  },
];
