import { describe, expect, it } from 'vitest';
import { MAX_CART_ITEMS } from './catalogue';
import { parseRequest } from './requests';

const BASE =
  'amount=92.00&currency=EUR&paymentBrand=VISA&paymentType=DB&card.number=4200000000000000' +
  '&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=123';

const item = (i: number) =>
  `cart.items[${i}].name=Item%20${i}&cart.items[${i}].quantity=1&cart.items[${i}].price=1.00`;

/** The base payment with items 0 … count - 1. */
const withItems = (count: number) => [BASE, ...Array.from({ length: count }, (_, i) => item(i))].join('&');

describe('cart.items limit on a payment', () => {
  it('is 1000 items', () => {
    expect(MAX_CART_ITEMS).toBe(1000);
  });

  it('accepts the base payment', () => {
    expect(parseRequest('payment', BASE).ok).toBe(true);
  });

  it('accepts 1000 cart items (indices 0 to 999)', () => {
    const result = parseRequest('payment', withItems(1000));
    if (!result.ok) throw new Error(JSON.stringify(result.errors.slice(0, 5)));
    const items = result.value.cart?.items;
    expect(items).toHaveLength(1000);
    expect(items?.[0]).toEqual({ name: 'Item 0', quantity: '1', price: '1.00' });
    expect(items?.[999]).toEqual({ name: 'Item 999', quantity: '1', price: '1.00' });
  });

  it('refuses a 1001st item (index 1000), naming it once', () => {
    const result = parseRequest('payment', withItems(1001));
    expect(result).toEqual({
      ok: false,
      status: 400,
      errors: [
        {
          name: 'cart.items[1000]',
          value: null,
          message: 'is beyond the limit: at most 1000 cart.items are allowed (indices 0 to 999)',
        },
      ],
    });
  });

  it('refuses index 1000 sent first, before the other items', () => {
    const body = [BASE, item(1000), ...Array.from({ length: 1000 }, (_, i) => item(i))].join('&');
    const result = parseRequest('payment', body);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.name)).toEqual(['cart.items[1000]']);
  });

  it('refuses index 1000 alone with the limit error, not a gap error', () => {
    const result = parseRequest('payment', `${BASE}&${item(1000)}`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.name)).toEqual(['cart.items[1000]']);
  });
});
