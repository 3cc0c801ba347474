/** Spec sections: cart items, cart payments, marketplace, airline. */

import type { FormTree } from '../../form/decode';
import { wireHundredths } from '../../money/amount';
import { group, list } from '../nodes';
import { check } from '../rules';
import { AN, BOOL, COUNTRY, CURRENCY, DATE, DEC2, decimal, N, oneOf, PHONE, pattern, URL } from './dsl';

/** "Index n runs from 0; at most 1000 items." */
export const MAX_CART_ITEMS = 1000;
/**
 * The spec sets no limit for the other lists; these bound memory and stay far above real use
 * (a cart with more payments than items, a flight with more legs than a ticket holds, is not a cart).
 */
export const MAX_CART_PAYMENTS = 100;
export const MAX_SELLERS = 1000;
export const MAX_PASSENGERS = 999;
export const MAX_LEGS = 99;

const C = { req: 'C' } as const;

const cartItem = group({
  name: AN(1, 255, C),
  merchantItemId: AN(1, 255, C),
  quantity: decimal(12, 3, C),
  type: oneOf(['PHYSICAL', 'DIGITAL', 'MIXED', 'ANONYMOUS_DONATION', 'AUTHORITIES_PAYMENT'], C),
  sku: AN(1, 255),
  currency: CURRENCY(C),
  description: AN(1, 2048, C),
  commodityCode: N(8, 8, { note: 'UNSPSC code.' }),
  commodityDescription: AN(1, 50),
  originalPrice: AN(1, 255, { note: 'Price excluding tax and discount, independent of quantity.' }),
  price: DEC2({ req: 'C', note: 'Price including tax and discount, independent of quantity.' }),
  totalAmount: DEC2({ req: 'C', note: 'Total including quantity.' }),
  taxAmount: DEC2({ req: 'C', note: 'Independent of quantity.' }),
  totalTaxAmount: DEC2(C),
  tax: decimal(3, 2, { req: 'C', max: 100, note: 'Percentage 0 to 100.' }),
  taxCategory: oneOf(['AA', 'S', 'E', 'Z'], C),
  shipping: DEC2(C),
  discount: DEC2(C),
  giftMessage: AN(1, 255),
  shippingMethod: AN(1, 255),
  shippingInstructions: AN(1, 255),
  shippingTrackingNumber: AN(1, 255),
  quantityUnit: oneOf(['M', 'CM', 'KG', 'G', 'COUNT'], { note: 'Default COUNT.' }),
  productUrl: URL(1, 2048),
  imageUrl: URL(1, 2048),
  totalDiscountAmount: DEC2(),
  productCode: AN(1, 30),
  partNumber: AN(1, 30),
  vatReferenceNumber: AN(1, 30),
  // "N3, 1 to 999": up to three digits, not all zeros; `001` is line 1, as shops number their lines
  itemNumber: pattern(/^(?!0+$)[0-9]{1,3}$/, 'a line number of 1 to 3 digits from 1 to 999, e.g. 1 or 001', {
    note: 'Invoice line number.',
  }),
  sellerId: AN(1, 255, { note: 'Marketplace seller owning the item.' }),
  recipient: group({
    salutation: AN(1, 5),
    firstName: AN(1, 48),
    lastName: AN(1, 48),
    middleName: AN(1, 50),
    apartment: AN(1, 100),
    street: AN(1, 100),
    address: AN(1, 100),
    city: AN(1, 80),
    state: AN(1, 50),
    postcode: AN(1, 16),
    country: pattern(/^([A-Za-z]{2}|[0-9]{3})$/, '2 letters or 3 digits'),
    // the spec's N 1-25, as phones are read everywhere (dsl.ts PHONE: the family's formats)
    phone: PHONE(1, 25),
    email: AN(1, 128),
  }),
  deliveryDate: DATE(),
});

const cartPayment = group({
  name: AN(1, 255),
  type: oneOf(['GIFTCARD', 'PROMOTION']),
  amount: DEC2(),
  currency: CURRENCY(),
  status: oneOf(['pending', 'authorized', 'captured']),
  brand: AN(1, 255),
  primary: BOOL({ note: 'Marks the primary payment method.' }),
});

/** marketPlace.sellers and cart.items, when both are sent as lists: what the seller checks compare. */
function sellersAndItems(root: FormTree): { sellers: FormTree[]; items: FormTree[] } | undefined {
  const sellers = (root.marketPlace as FormTree | undefined)?.sellers;
  const items = (root.cart as FormTree | undefined)?.items;
  return Array.isArray(sellers) && Array.isArray(items) ? { sellers, items } : undefined;
}

/** "Items of a seller are sent as cart items whose sellerId equals the seller id." */
const sellerIdsKnown = check({
  paths: ['cart.items', 'marketPlace.sellers'],
  says: 'When marketplace sellers are sent, each cart item sellerId names one of them.',
  apply(root, report) {
    const both = sellersAndItems(root);
    if (both === undefined) return;
    const { sellers, items } = both;
    const ids = new Set(sellers.map((s) => s.id));
    items.forEach((item, i) => {
      const id = item.sellerId;
      if (typeof id === 'string' && !ids.has(id)) {
        report(`cart.items[${i}].sellerId`, 'must be the id of one of the marketPlace.sellers', id);
      }
    });
  },
});

/** An item's total in hundredths: totalAmount, else price × quantity; undefined when it cannot be told. */
function itemTotal(item: FormTree): bigint | undefined {
  const total = wireHundredths(item.totalAmount);
  if (total !== undefined) return total;
  const price = wireHundredths(item.price);
  const quantity =
    typeof item.quantity === 'string' ? /^([0-9]+)(?:\.([0-9]{1,3}))?$/.exec(item.quantity) : null;
  if (price === undefined || quantity === null) return undefined;
  const thousandths = BigInt(quantity[1]!) * 1000n + BigInt((quantity[2] ?? '').padEnd(3, '0'));
  if ((price * thousandths) % 1000n !== 0n) return undefined; // not a whole amount: the item says totalAmount
  return (price * thousandths) / 1000n;
}

const fromHundredths = (h: bigint) => `${h / 100n}.${String(h % 100n).padStart(2, '0')}`;

/** "marketPlace.sellers[n].amount: total of the seller's items", checked where the items tell it. */
const sellerAmountsAddUp = check({
  paths: ['marketPlace.sellers', 'cart.items'],
  says: "A seller's amount is the total of the cart items whose sellerId is the seller's id.",
  apply(root, report) {
    const both = sellersAndItems(root);
    if (both === undefined) return;
    const { sellers, items } = both;
    sellers.forEach((seller, i) => {
      const amount = wireHundredths(seller.amount);
      const own = items.filter((item) => item.sellerId === seller.id);
      if (amount === undefined || own.length === 0) return;
      const totals = own.map(itemTotal);
      if (totals.some((t) => t === undefined)) return;
      const sum = (totals as bigint[]).reduce((a, b) => a + b, 0n);
      if (sum !== amount)
        report(
          `marketPlace.sellers[${i}].amount`,
          `must be the total of the seller's cart items (${fromHundredths(sum)})`,
          typeof seller.amount === 'string' ? seller.amount : null,
        );
    });
  },
});

export const cart = group(
  {
    cart: group({
      items: list(cartItem, MAX_CART_ITEMS),
      payments: list(cartPayment, MAX_CART_PAYMENTS),
    }),
    marketPlace: group({
      sellers: list(
        group({ id: AN(1, 255), amount: DEC2({ note: "Total of the seller's items." }) }),
        MAX_SELLERS,
      ),
    }),
  },
  [sellerIdsKnown, sellerAmountsAddUp],
);

const T = (o?: { req?: 'C' }) => AN(1, 255, o ?? C);

const leg = group({
  ticketNumber: T(),
  taxAmount: DEC2(C),
  stopOverAllowed: T(),
  restrictions: T(),
  flightNumber: T(),
  feesAmount: DEC2(C),
  fareBasis: T(),
  fareAmount: DEC2(C),
  exchangeTicketNum: T(),
  departureTaxAmount: DEC2(C),
  departureCountry: T(),
  departureAirport: T(),
  airlineName: T(),
  airlineCode: T(),
  departureTime: T(),
  departureDate: DATE(C),
  arrivalCountry: T(),
  arrivalAirport: T(),
  arrivalTime: T(),
  arrivalDate: DATE(C),
  couponNumber: T(),
  classOfService: T(),
  carrierCode: T(),
  timeToDeparture: AN(1, 10, { req: 'C', note: 'Days.' }),
});

const passenger = group({
  type: T(),
  name: T(),
  ticketRestricted: T(),
  ticketNumber: T(),
  status: T(),
  phone: T(),
  frequentFlyerNumber: T(),
  email: T(),
  dob: T(),
  checkDigit: T(),
  residenceCountry: COUNTRY(C),
  legs: list(leg, MAX_LEGS),
});

export const airline = group({
  airline: group({
    totalTaxAmount: DEC2(C),
    totalFeesAmount: DEC2(C),
    totalFareAmount: DEC2(C),
    ticketIssueDate: DATE(C),
    ticketIssueAddress: T(),
    thirdPartyBooking: T(),
    bookingtype: T(),
    ticketDeliveryMethod: T(),
    bookingRefNum: T(),
    agentName: T(),
    agentCode: T(),
    passengers: list(passenger, MAX_PASSENGERS),
  }),
});
