/** Spec sections: customer, shipping customer, billing address, shipping address, and their merchant repeats. */
import { extend, group, omit, optional } from '../nodes';
import { check, requires, str, together } from '../rules';
import {
  A,
  POSTCODE as ADDRESS_POSTCODE,
  STATE as ADDRESS_STATE,
  AN,
  BOOL,
  COUNTRY,
  DATE,
  DEC2,
  EMAIL,
  N,
  oneOf,
  PHONE,
  pattern,
} from './dsl';

const V2 = { req: 'C', tags: ['3ds2'], note: 'Mandatory for 3-D Secure v2.' } as const;

const browser = group({
  acceptHeader: AN(1, 2048, V2),
  language: AN(1, 8, { ...V2, note: 'IETF BCP47; mandatory for 3-D Secure v2.' }),
  screenHeight: AN(1, 6, { ...V2, note: 'Pixels; mandatory for 3-D Secure v2.' }),
  screenWidth: AN(1, 6, { ...V2, note: 'Pixels; mandatory for 3-D Secure v2.' }),
  timezone: AN(1, 5, {
    ...V2,
    note: 'Minutes between UTC and browser local time; mandatory for 3-D Secure v2.',
  }),
  userAgent: AN(1, 2048, V2),
  javaEnabled: BOOL(V2),
  screenColorDepth: N(1, 2, { note: 'Bits per pixel.' }),
  challengeWindow: N(1, 1, { note: 'Preconfigured challenge window size.' }),
  deviceId: AN(1, 32),
});

export const customerGroup = group(
  {
    merchantCustomerId: AN(1, 255),
    givenName: AN(1, 50, { req: 'C', note: 'Sent together with surname.' }),
    middleName: AN(2, 50),
    surname: AN(1, 50, { req: 'C', note: 'Sent together with givenName.' }),
    sex: oneOf(['M', 'F']),
    birthDate: DATE(),
    phone: PHONE(1, 25),
    mobile: PHONE(1, 25),
    workPhone: AN(1, 25),
    email: EMAIL(6, 128, { note: 'Needed for some risk checks and for sending direct-debit mandates.' }),
    companyName: AN(1, 60),
    identificationDocType: oneOf(['IDCARD', 'PASSPORT', 'TAXSTATEMENT'], {
      req: 'C',
      note: 'Requires customer.identificationDocId.',
    }),
    identificationDocId: AN(8, 64, { req: 'C', note: 'Requires customer.identificationDocType.' }),
    ip: AN(1, 255),
    merchantReference: AN(1, 255),
    salutation: oneOf(['MR', 'MRS', 'MS', 'MX']),
    language: pattern(/^[A-Z]{2}$/, '2 uppercase letters'),
    category: oneOf(['INDIVIDUAL', 'COMPANY']),
    status: oneOf(['NEW', 'EXISTING']),
    browserFingerprint: group({ id: AN(1, 255), value: AN(1, 4096) }),
    browser,
    app: group({ deviceId: AN(1, 40) }),
  },
  [
    // A name is a given name and a surname: one alone is half a name. Nothing else needs the
    // name (decisions, "Fidelity to the family"): the family's connectors send an e-mail, an IP
    // address or the browser's data alone, and its platform takes them.
    together('givenName', 'surname'),
    together('identificationDocType', 'identificationDocId'),
  ],
);

/** shipping.customer.*: every customer field (O) except browserFingerprint.*, browser.deviceId and app.deviceId. */
export const shippingCustomerGroup = optional(
  extend(omit(customerGroup, ['browserFingerprint', 'browser', 'app']), {
    browser: omit(browser, ['deviceId']),
  }),
);

/** "street1 plus street2 may not consist of digits only"; with houseNumber1, street2 is ignored. */
const streetNotDigitsOnly = check({
  paths: ['street1', 'street2'],
  says: 'street1 plus street2 may not consist of digits only.',
  apply(g, report) {
    const street1 = str(g, 'street1') ?? '';
    const street2 = str(g, 'houseNumber1') === undefined ? (str(g, 'street2') ?? '') : '';
    const joined = (street1 + street2).replace(/\s+/g, '');
    if (joined !== '' && /^[0-9]+$/.test(joined)) {
      report(street1 === '' ? 'street2' : 'street1', 'must not be digits only (street1 plus street2)');
    }
  },
});

const STATE = ADDRESS_STATE({ req: 'C' });
const POSTCODE = ADDRESS_POSTCODE({ req: 'C' });

export const billingGroup = group(
  {
    street1: AN(1, 100, V2),
    street2: AN(1, 100, { req: 'C', note: 'street1 plus street2 may not consist of digits only.' }),
    houseNumber1: AN(1, 100, {
      note: 'When present, street1 holds only the street name and street2 is ignored.',
    }),
    houseNumber2: AN(1, 100, { note: 'Requires houseNumber1.' }),
    city: AN(1, 80, V2),
    state: STATE,
    postcode: { ...POSTCODE, ...V2 },
    country: COUNTRY(V2),
    normalized: AN(1, 255),
    validationStatus: AN(1, 255),
  },
  [requires('houseNumber2', 'houseNumber1'), streetNotDigitsOnly],
);

/** merchant.billing.*: all billing fields (O) plus the merchant's names and contacts. */
const merchantBillingGroup = extend(optional(billingGroup), {
  givenName: AN(1, 255),
  surname: AN(1, 255),
  middleName: AN(1, 255),
  companyName: AN(1, 60),
  phone: AN(1, 25),
  workPhone: AN(1, 25),
  mobile: PHONE(5, 25),
  email: EMAIL(6, 128),
});

export const SHIPPING_METHODS = [
  'CARRIER_DESIGNATED_BY_CUSTOMER',
  'ELECTRONIC_DELIVERY',
  'EXPEDITED',
  'GROUND',
  'INTERNATIONAL',
  'LOWEST_COST',
  'MILITARY',
  'NEXT_DAY_OVERNIGHT',
  'OTHER',
  'POINT_PICKUP',
  'PUDO',
  'SAME_DAY_SERVICE',
  'STORE_PICKUP',
  'THREE_DAY_SERVICE',
  'TWO_DAY_SERVICE',
] as const;

export const shippingAddressGroup = group(
  {
    // not in the spec's table; the family's platform takes them (decisions, "Fidelity to the family")
    givenName: AN(1, 50, { note: "The recipient's given name." }),
    surname: AN(1, 50, { note: "The recipient's surname." }),
    street1: AN(1, 100, { req: 'C' }),
    street2: AN(1, 100, { req: 'C' }),
    houseNumber1: AN(1, 100, { note: 'When present, street1 holds only the street and street2 is ignored.' }),
    houseNumber2: AN(1, 100, { note: 'Requires houseNumber1.' }),
    city: A(1, 80, { req: 'C' }),
    state: STATE,
    postcode: POSTCODE,
    country: COUNTRY({ req: 'C' }),
    method: oneOf(SHIPPING_METHODS, { req: 'C' }),
    cost: DEC2({ req: 'C', note: 'Total shipping cost.' }),
    comment: AN(1, 160, { req: 'C' }),
    expectedDate: DATE(),
    logisticsProvider: AN(1, 255),
    trackingNumber: AN(1, 255),
    returnTrackingNumber: AN(1, 255),
    normalized: AN(1, 255),
    validationStatus: AN(1, 255),
    warehouse: AN(1, 100),
    preference: oneOf(['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS']),
    middleName: AN(1, 255),
    companyName: AN(1, 60),
    phone: PHONE(5, 25),
    mobile: PHONE(5, 25),
    workPhone: AN(1, 25),
    email: EMAIL(6, 128),
    type: oneOf(['RETURN', 'SHIPMENT']),
  },
  [requires('houseNumber2', 'houseNumber1')],
);

export const customer = group({ customer: customerGroup });
export const billing = group({ billing: billingGroup, merchant: group({ billing: merchantBillingGroup }) });
export const shipping = group({
  shipping: extend(shippingAddressGroup, { customer: shippingCustomerGroup }),
  merchant: group({ shipping: optional(shippingAddressGroup) }),
});
