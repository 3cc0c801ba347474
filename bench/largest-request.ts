/**
 * The spec's largest valid request: a payment with every parameter group filled (one instrument,
 * the card) and `items` cart items; with 1,000 items about 390 KiB and 12,300 parameters. What
 * bench/params.bench.ts times, and what the body limits must keep accepting
 * (server/http/middleware/work-budget, the noisy neighbour).
 */

export type Pairs = [string, string][];

/** Form-encodes pairs the way clients do: values percent-encoded, brackets in names left raw. */
export function encode(pairs: Pairs): string {
  const name = (n: string) => encodeURIComponent(n).replace(/%5B/g, '[').replace(/%5D/g, ']');
  return pairs.map(([n, v]) => `${name(n)}=${encodeURIComponent(v)}`).join('&');
}

export const group = (prefix: string, fields: Record<string, string>): Pairs =>
  Object.entries(fields).map(([k, v]) => [`${prefix}${k}`, v]);

export const CARD_PAYMENT: Pairs = [
  ['amount', '92.00'],
  ['currency', 'EUR'],
  ['paymentBrand', 'VISA'],
  ['paymentType', 'DB'],
  ['card.number', '4200000000000000'],
  ['card.holder', 'Jane Jones'],
  ['card.expiryMonth', '05'],
  ['card.expiryYear', '2034'],
  ['card.cvv', '123'],
];

const ADDRESS = {
  street1: 'Hauptstrasse',
  houseNumber1: '12',
  houseNumber2: 'a',
  city: 'Berlin',
  state: 'BE',
  postcode: '10115',
  country: 'DE',
};

/** (b) Every parameter group a payment takes (one instrument: the card), and 1000 cart items. */
export function fullPayment(items: number): Pairs {
  const p: Pairs = [
    ...CARD_PAYMENT,
    ...group('', {
      entityId: '8a8294174b7ecb28014b9699220015ca',
      taxAmount: '10.00', // not above amount (the catalogue's rule)
      discountAmount: '5.00',
      descriptor: 'Shop order 4711',
      merchantTransactionId: 'order-2024-000471',
      merchantInvoiceId: 'invoice-000471',
      merchantMemo: 'memo for 471',
      transactionCategory: 'EC',
      integrity: 'true',
      locale: 'de-DE',
      testMode: 'EXTERNAL',
      shopperResultUrl: 'https://shop.example.com/result',
      notificationUrl: 'https://shop.example.com/notify',
      createRegistration: 'true',
      recurringType: 'INITIAL',
    }),
    ...group('forex.', { amount: '100.00', currency: 'USD' }),
    ...group('authentication.', { userId: '8a8294174b7ecb28014b9699220015cc', password: 'sy6KJsT8' }),
    ...group('customer.', {
      merchantCustomerId: 'cust-42',
      givenName: 'Jane',
      middleName: 'Mary',
      surname: 'Jones',
      sex: 'F',
      birthDate: '1980-02-29',
      phone: '+49 30 1234567',
      mobile: '+49 170 1234567',
      workPhone: '+49 30 7654321',
      email: 'jane.jones@example.com',
      companyName: 'Jones GmbH',
      identificationDocType: 'PASSPORT',
      identificationDocId: 'C01X00T47',
      ip: '192.0.2.10',
      merchantReference: 'ref-42',
      salutation: 'MRS',
      language: 'DE',
      category: 'INDIVIDUAL',
      status: 'EXISTING',
    }),
    ...group('customer.browserFingerprint.', { id: 'fp-1', value: 'abcdef0123456789' }),
    ...group('customer.browser.', {
      acceptHeader: 'text/html,application/xhtml+xml',
      language: 'de-DE',
      screenHeight: '1080',
      screenWidth: '1920',
      timezone: '-60',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
      javaEnabled: 'false',
      screenColorDepth: '24',
      challengeWindow: '4',
      deviceId: 'dev-1',
    }),
    ...group('customer.app.', { deviceId: 'app-device-1' }),
    ...group('billing.', { ...ADDRESS, street2: 'Hinterhaus' }),
    ...group('shipping.', {
      ...ADDRESS,
      method: 'GROUND',
      cost: '4.95',
      comment: 'Leave at the door',
      expectedDate: '2030-01-15',
      logisticsProvider: 'DHL',
      trackingNumber: 'TRK123',
      type: 'SHIPMENT',
      companyName: 'Jones GmbH',
      phone: '+49 30 1234567',
      email: 'jane.jones@example.com',
    }),
    ...group('shipping.customer.', {
      givenName: 'John',
      surname: 'Jones',
      email: 'john.jones@example.com',
      phone: '+49 30 1111111',
    }),
    ...group('shipping.customer.browser.', { language: 'de-DE', screenHeight: '1080', screenWidth: '1920' }),
    ...group('merchant.', {
      name: 'Example Shop',
      mcc: '5999',
      street: 'Marktplatz 1',
      city: 'Hamburg',
      state: 'HH',
      countryCode: '276',
      country: 'DE',
      postcode: '20095',
      geographicCoordinates: '53.55,9.99',
      phone: '+4940123456',
      url: 'https://shop.example.com',
      submerchantId: 'sub-1',
      legalName: 'Example Shop GmbH',
    }),
    ...group('merchant.billing.', {
      ...ADDRESS,
      givenName: 'Max',
      surname: 'Muster',
      email: 'billing@example.com',
    }),
    ...group('merchant.shipping.', { ...ADDRESS, method: 'GROUND' }),
    ...group('merchant.data', { '[channel]': 'web', '[campaign]': 'spring2030' }),
    ...group('merchant.app.', { schemeUrl: 'shop://return' }),
    ...group('corporate.', {
      name: 'Jones GmbH',
      description: 'Corporate purchase',
      street: 'Hauptstrasse 12',
      city: 'Berlin',
      postCode: '10115',
      purchase: 'Y',
      phone: '49301234567',
      vatId: 'DE123456789',
    }),
    ...group('sender.', {
      givenName: 'Jane',
      surname: 'Jones',
      birthDate: '1980-02-29',
      accountNumber: 'DE89370400440532013000',
      street: 'Hauptstrasse 12',
      city: 'Berlin',
      country: 'DEU',
      postcode: '10115',
      accountNumberType: 'IBAN',
      sourceOfFunds: '02',
      nationality: 'German',
      birthCountry: 'DEU',
    }),
    ...group('recipient.', {
      givenName: 'John',
      surname: 'Smith',
      birthDate: '1975-06-01',
      phone: '+44 20 7946 0958',
      accountNumber: 'GB29NWBK60161331926819',
      street: 'High Street 1',
      city: 'London',
      country: 'GBR',
      postcode: 'SW1A1AA',
      accountNumberType: 'IBAN',
      relationship: 'Friend',
    }),
    ...group('airline.', {
      totalTaxAmount: '20.00',
      totalFeesAmount: '10.00',
      totalFareAmount: '300.00',
      ticketIssueDate: '2030-01-01',
      ticketIssueAddress: 'Berlin',
      bookingRefNum: 'ABC123',
      agentName: 'Travel Agent',
      agentCode: 'TA1',
    }),
  ];
  for (let i = 0; i < 2; i++) {
    p.push(
      ...group(`airline.passengers[${i}].`, {
        type: 'ADT',
        name: `Passenger ${i}`,
        ticketNumber: `0571234567${i}`,
        email: `p${i}@example.com`,
        dob: '1980-01-01',
        residenceCountry: 'DE',
      }),
    );
    for (let j = 0; j < 2; j++) {
      p.push(
        ...group(`airline.passengers[${i}].legs[${j}].`, {
          ticketNumber: `0571234567${i}`,
          flightNumber: `LH40${j}`,
          fareBasis: 'Y',
          fareAmount: '150.00',
          taxAmount: '10.00',
          feesAmount: '5.00',
          departureAirport: j === 0 ? 'TXL' : 'JFK',
          arrivalAirport: j === 0 ? 'JFK' : 'TXL',
          departureDate: '2030-02-01',
          arrivalDate: '2030-02-01',
          departureTime: '10:00',
          arrivalTime: '14:00',
          carrierCode: 'LH',
          classOfService: 'Y',
          stopOverAllowed: 'O',
        }),
      );
    }
  }
  p.push(
    ...group('threeDSecure.', {
      amount: '92.00',
      currency: 'EUR',
      eci: '05',
      verificationId: 'AAACBllleHchZTBWIGV4MAAAAAA=',
      authenticationStatus: 'Y',
      dsTransactionId: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
      acsTransactionId: 'a25084f0-5b16-4c0a-ae5d-b24808a95e4b',
      version: '2.2.0',
      challengeIndicator: '04',
      exemptionFlag: '01',
      authenticationInd: 'PAYMENT',
    }),
    ...group('threeDSecure.schemeData', {
      '[CB-USECASE]': '01',
      '[CB-ITEMSNB]': '02',
      '[CB-SCORE_MERCHANT]': 'high',
    }),
    ...group('threeDSecure.merchant.', {
      name: 'Example Shop',
      url: 'https://shop.example.com',
      country: 'DEU',
    }),
    ...group('threeDSecure.v2.visa.', { requestorId: 'req-visa-1', requestorName: 'Example Shop' }),
    ...group('threeDSecure.v2.mastercard.', { requestorId: 'req-mc-1' }),
    ...group('standingInstruction.', {
      type: 'UNSCHEDULED',
      mode: 'INITIAL',
      source: 'CIT',
      expiry: '2035-12-31',
      frequency: '30',
      agreementId: 'agreement-1',
    }),
    ...group('recurringMigration.', {
      paymentType: 'DB',
      amount: '10.00',
      requestTimestamp: '2020-01-01 10:00:00',
      connectorTxId1: 'tx1',
    }),
    ...group('risk.', {
      channelId: 'web',
      serviceId: 'svc',
      amount: '92.00',
      orderTimestamp: '2030-01-01 12:00:00',
      brand: 'VISA',
      merchantWebsite: 'shop.example.com',
      accountToken: 'tok-1',
    }),
    ...group('risk.parameters', { '[USER_DATA1]': 'gold', '[USER_DATA2]': 'repeat' }),
    ...group('customParameters', {
      '[SHOPPER_orderId]': '4711',
      '[3DS2_enrolled]': 'true',
      '[promo.code]': 'SPRING',
    }),
  );
  for (let i = 0; i < 2; i++) {
    p.push(
      ...group(`cart.payments[${i}].`, {
        name: `Gift card ${i}`,
        type: 'GIFTCARD',
        amount: '10.00',
        currency: 'EUR',
        status: 'authorized',
        brand: 'GIFTCARD',
      }),
      ...group(`marketPlace.sellers[${i}].`, { id: `seller-${i}`, amount: '500.00' }),
    );
  }
  for (let i = 0; i < items; i++) {
    p.push(
      ...group(`cart.items[${i}].`, {
        name: `Item ${i}`,
        merchantItemId: `sku-${i}`,
        quantity: '1',
        type: 'PHYSICAL',
        sku: `SKU${i}`,
        currency: 'EUR',
        description: `Description of item ${i}`,
        price: '1.00',
        totalAmount: '1.00',
        taxAmount: '0.19',
        tax: '19',
        sellerId: `seller-${i % 2}`,
      }),
    );
  }
  return p;
}
