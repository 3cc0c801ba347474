/** Spec sections: corporate, sender, recipient, merchant (acceptor). */
import { dict, group } from '../nodes';
import {
  AN,
  COUNTRY3,
  LDW,
  LW,
  MAP_KEY,
  MAP_VALUE,
  oneOf,
  PHONE,
  POSTCODE,
  pattern,
  STATE,
  YMD,
} from './dsl';

export const corporate = group({
  corporate: group({
    name: AN(1, 30),
    description: AN(1, 160),
    street: AN(1, 100),
    address: AN(1, 100),
    city: AN(1, 80),
    state: AN(1, 50),
    postCode: AN(1, 16),
    suite: AN(1, 30),
    postboxNumber: AN(1, 15),
    purchase: oneOf(['Y', 'N']),
    // the spec's N 1-25, as phones are read everywhere (dsl.ts PHONE: the family's formats)
    phone: PHONE(1, 25),
    fax: PHONE(1, 25),
    vatId: AN(1, 255),
  }),
});

// The spec's tables: "up to 3 characters, ISO 3166-1 alpha-3" for the countries, "up to 3 letters
// (alpha-3 where applicable)" for the birth countries: both the assigned alpha-3 codes (shared/geo).
const COUNTRY = COUNTRY3();
const BIRTH_COUNTRY = COUNTRY3();

/** The account and address fields the spec gives sender and recipient alike. */
const ACCOUNT_AND_PLACE = {
  accountNumber: AN(1, 32, { mask: 'account' }),
  street: AN(1, 100),
  city: LDW(50),
  state: LDW(50),
  country: COUNTRY,
  postcode: AN(1, 30),
};

export const sender = group({
  sender: group({
    name: LDW(100),
    givenName: LDW(50),
    middleName: LDW(50),
    surname: LDW(50),
    birthDate: YMD(),
    ...ACCOUNT_AND_PLACE,
    accountNumberType: oneOf(['OTHER', 'RTN_AND_BANK_ACCOUNT', 'IBAN', 'IBAN_AND_BIC', 'CARD_ACCOUNT']),
    sourceOfFunds: oneOf(['01', '02', '03', '04', '05', '06', '07', '08', '09'], {
      note: '01 credit, 02 debit, 03 prepaid, 04 cash, 05-09 other account kinds.',
    }),
    entityType: LDW(50),
    nationality: LW(50),
    occupation: LDW(50),
    birthCountry: BIRTH_COUNTRY,
  }),
});

export const recipient = group({
  recipient: group({
    givenName: LDW(48),
    middleName: LDW(48),
    surname: LDW(48),
    birthDate: YMD(),
    // the spec's "plus or digit, then 7 to 25 further characters": 8 to 26, as every phone (dsl.ts)
    phone: PHONE(8, 26),
    ...ACCOUNT_AND_PLACE,
    accountNumberType: oneOf([
      'OTHER',
      'RTN_AND_BANK_ACCOUNT',
      'IBAN',
      'PHONE_NUMBER',
      'BAN_AND_BIC',
      'WALLET_ID',
      'SOCIAL_NETWORK_ID',
    ]),
    nationality: LW(50),
    identificationType: LDW(50),
    identificationValue: LDW(50),
    entityType: LDW(50),
    relationship: LDW(50),
    occupation: LDW(50),
    birthCountry: BIRTH_COUNTRY,
  }),
});

// The merchant's own address takes what the shoppers' addresses take (decisions, "Addresses").
const LD50 = STATE();
const POST = POSTCODE();
const COORDINATES = pattern(
  /^(?=.{1,20}$)-?[0-9]{1,2}(\.[0-9]+)?,-?[0-9]{1,3}(\.[0-9]+)?$/,
  'latitude,longitude in up to 20 characters',
);
const MERCHANT_PHONE = pattern(
  /^[A-Za-z0-9+.-]{1,25}$/,
  'up to 25 letters, digits, plus signs, hyphens or dots',
);

export const merchant = group({
  merchant: group({
    name: AN(1, 100, { note: 'Overrides the merchant name; normally the first statement line.' }),
    mcc: pattern(/^[A-Za-z0-9]{1,4}$/, 'up to 4 letters or digits'),
    street: AN(1, 100),
    city: AN(1, 100),
    state: LD50,
    countryCode: pattern(/^[0-9]{3}$/, '3 digits, ISO 3166-1 numeric'),
    country: pattern(/^[A-Za-z]{2}$/, '2 letters'),
    postcode: POST,
    geographicCoordinates: COORDINATES,
    serviceLocationCity: AN(1, 100),
    serviceLocationState: LD50,
    serviceLocationCountryCode: pattern(/^[A-Za-z0-9]{1,3}$/, 'up to 3 letters or digits'),
    serviceLocationPostCode: POST,
    serviceLocationGeographicCoordinates: AN(1, 20),
    additionalContact: AN(1, 255),
    phone: MERCHANT_PHONE,
    customerContactPhone: MERCHANT_PHONE,
    websiteId: AN(1, 255),
    url: AN(1, 255),
    partnerIdCode: AN(1, 60),
    isoId: AN(1, 255),
    payFacId: AN(1, 255),
    payFacName: AN(1, 255),
    marketplaceId: AN(1, 255),
    submerchantId: AN(1, 100),
    taxId: AN(1, 60),
    data: dict(MAP_KEY, MAP_VALUE, 'Additional merchant data.'),
    foreignRetailIndicator: AN(1, 25),
    legalName: AN(1, 100),
    app: group({ schemeUrl: AN(1, 255) }),
  }),
});
