/**
 * The operator HyperPay's own Magento 2 plugin (HyperpayOpenSource/Magento-2-Plugin): its checkout
 * request (Controller/Index/Request.php), built by string concatenation, nothing escaped (an
 * e-mail's `@` raw), with the addresses of Helper/Data.php getBillingAndShippingAddress, the
 * method-specific extras, the duplicate-order query and the back-office capture and refund
 * (Model/Adapter.php buildCaptureOrRefundRequest). Live form: amounts with two decimals, no testMode.
 */
import type { Entry, Field, Source } from '../entry';
import { fields } from './curl';

const REPO = 'HyperpayOpenSource/Magento-2-Plugin';
const REQUEST = 'Hyperpay/Extension/Controller/Index/Request.php';
const source = (note: string, path = REQUEST): Source => ({ repo: REPO, path, note });

const CHECKOUT = { status: 200, resultCode: '000.200.100', has: ['id'], strings: true } as const;
const SUCCESS = { status: 200, resultCode: '000.100.110', has: ['id'], strings: true } as const;

/** The head of every checkout: entity, notification address, money, type, e-mails, plugin tag. */
const HEAD = fields(
  'entityId={entityId}',
  'notificationUrl=https://shop.example/hyperpay/index/status/?method=HyperPay_Visa',
  'amount=120.00',
  'currency=SAR',
  'paymentType=DB',
  'customer.email=jane@example.com',
  'customParameters[plugin]=magento',
  'shipping.customer.email=jane@example.com',
);

/** getBillingAndShippingAddress: shipping first, then billing, in the helper's order. */
const ADDRESSES = fields(
  'shipping.city=Riyadh',
  'shipping.country=SA',
  'shipping.postcode=12211',
  'shipping.customer.givenName=Jane',
  'shipping.customer.surname=Jones',
  'shipping.customer.phone=0501234567',
  'shipping.street1=King Fahd Road 1',
  'billing.city=Riyadh',
  'billing.country=SA',
  'customer.givenName=Jane',
  'customer.phone=0501234567',
  'billing.postcode=12211',
  'customer.surname=Jones',
  'billing.street1=King Fahd Road 1',
);

const checkout = (name: string, note: string, extra: Field[]): Entry => ({
  name: `hyperpay magento: ${name}`,
  source: source(note),
  method: 'POST',
  path: '/v1/checkouts',
  encoding: 'raw',
  body: [...HEAD, ...ADDRESSES, ...extra, ['merchantTransactionId', '000000042']],
  expect: CHECKOUT,
});

const backOffice = (type: 'CP' | 'RF', prior: string): Entry => ({
  name: `hyperpay magento: back office ${type}`,
  source: source(
    'buildCaptureOrRefundRequest: entityId, currency, amount, paymentType',
    'Hyperpay/Extension/Model/Adapter.php',
  ),
  method: 'POST',
  path: '/v1/payments/{paymentId}',
  encoding: 'raw',
  body: fields('entityId={entityId}', 'currency=EUR', 'amount=10.00', `paymentType=${type}`),
  setup: { prior },
  expect: SUCCESS,
});

export const HYPERPAY_MAGENTO: readonly Entry[] = [
  checkout(
    'checkout for cards',
    'the request of a card method: addresses, plugin tag, merchantTransactionId',
    [],
  ),
  checkout(
    'checkout with the risk channel',
    'getRiskChannelId() set: risk.channelId, risk.serviceId, risk.amount, risk.parameters[USER_DATA1]',
    fields(
      'risk.channelId=8ac7a4c7761cdc4a01761f3f2bd20a12',
      'risk.serviceId=I',
      'risk.amount=120.00',
      'risk.parameters[USER_DATA1]=Mobile',
    ),
  ),
  checkout(
    'checkout for SADAD',
    'method HyperPay_SadadNcb: bankAccount.country=SA',
    fields('bankAccount.country=SA'),
  ),
  checkout(
    'checkout for STC Pay',
    'method HyperPay_stc: customParameters branch_id, teller_id, device_id, locale, bill_number',
    fields(
      'customParameters[branch_id]=1',
      'customParameters[teller_id]=1',
      'customParameters[device_id]=1',
      'customParameters[locale]=en',
      'customParameters[bill_number]=000000042',
    ),
  ),
  checkout(
    'checkout for Click to Pay',
    'method HyperPay_Click_to_pay: customParameters[3DS2_enrolled]=true',
    fields('customParameters[3DS2_enrolled]=true'),
  ),
  {
    name: 'hyperpay magento: duplicate-order query, nothing found → 400 700.400.580',
    source: source(
      'checkIfExist: GET query?entityId=…&merchantTransactionId=…, "700.400.580" read as no payment yet',
    ),
    method: 'GET',
    path: '/v1/query?entityId={entityId}&merchantTransactionId=000000099',
    familyAnswer: {
      resultCode: '700.400.580',
      notes:
        'the plugin compares result.code with "700.400.580" to learn that no payment has this merchantTransactionId',
    },
    expect: { status: 400, resultCode: '700.400.580' },
  },
  backOffice('CP', 'prior: card PA'),
  backOffice('RF', 'prior: card DB'),
];
