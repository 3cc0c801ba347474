/**
 * The sample values the document's examples use. openapi.test.ts sends each example with its
 * own merchant's values in place of these (and its token as the Bearer token).
 */
export const SAMPLE = {
  /** A channel (entityId) of the merchant. */
  entityId: '8a8294174b7ecb28014b9699220015ca',
  /** The merchant, in the admin API's paths. */
  merchantId: '8a8294174b7ecb28014b9699220015cb',
  /** The two halves of the access token, as the deprecated authentication.* parameters send them. */
  userId: '8a8294174b7ecb28014b9699220015cc',
  password: 'sy6KJsT8',
  /** A user of the admin API (a merchant admin of the merchant): openapi.test.ts creates them. */
  admin: { username: 'shop.admin@example.com', password: 'correct horse battery staple' },
  /** An id that names nothing. */
  unknownId: '8ac7a4a17f3e4c1a017f3e9b5a1f0000',
  /** The simulator's card that succeeds without 3-D Secure (see /docs/test-data). */
  card: {
    paymentBrand: 'VISA',
    'card.number': '4200000000000000',
    'card.holder': 'Jane Jones',
    'card.expiryMonth': '05',
    'card.expiryYear': '2034',
    'card.cvv': '123',
  },
  /**
   * What 3-D Secure v2 needs of a shopper who is present: the browser's description and the
   * billing address (the tests send the same, via server/test-kit/fixtures/three-d-secure.ts).
   */
  browser: {
    'customer.browser.acceptHeader': 'text/html,application/xhtml+xml',
    'customer.browser.language': 'de-DE',
    'customer.browser.screenHeight': '1080',
    'customer.browser.screenWidth': '1920',
    'customer.browser.timezone': '-60',
    'customer.browser.userAgent': 'Mozilla/5.0 (X11; Linux x86_64)',
    'customer.browser.javaEnabled': 'false',
  },
  billing: {
    'billing.street1': 'Hauptstrasse 1',
    'billing.city': 'Berlin',
    'billing.postcode': '10115',
    'billing.country': 'DE',
  },
} as const;
