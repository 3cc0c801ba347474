import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type PaymentData, type SheetInit, WALLET_NS } from '../../frames/wallet-protocol';
import {
  authorize,
  BUTTON_COLORS,
  buttonLook,
  dataChanged,
  readPaymentData,
  type SheetHandlers,
  sheetMessages,
  sheetOptions,
  walletFields,
} from './host';

const PAYMENT_DATA: PaymentData = {
  paymentMethodData: {
    type: 'CARD',
    description: 'Visa •••• 0000',
    info: { cardNetwork: 'VISA', cardDetails: '0000', cardType: 'CREDIT' },
    tokenizationData: { type: 'PAYMENT_GATEWAY', token: 'tok_abc' },
  },
  billingAddress: {
    name: 'Jane  Mary Jones',
    address1: 'Hauptstraße 1',
    locality: 'Berlin',
    postalCode: '10 115',
    countryCode: 'de',
    phoneNumber: '+49 30 1234567',
  },
};

const INIT = {
  t: 'init',
  wallet: 'walletA',
  checkoutId: 'C1.local01',
  options: {},
  locale: 'en',
} as const satisfies Omit<SheetInit, 'ns'>;

/** The host's side of the sheet's messages, with the sheet's replies recorded. */
function session(block: Record<string, unknown>) {
  const replies: unknown[] = [];
  const done = vi.fn();
  const cancel = vi.fn();
  const handlers: SheetHandlers = { block, init: INIT, done, cancel };
  const receive = sheetMessages(handlers);
  const say = (m: Record<string, unknown>) => receive({ ns: WALLET_NS, ...m }, (r) => replies.push(r));
  return { replies, done, cancel, say };
}

afterEach(() => vi.restoreAllMocks());

describe('wallet host', () => {
  it('builds walletA’s fields: token, network, type, billing address, name and phone', () => {
    expect(walletFields('walletA', PAYMENT_DATA)).toEqual([
      ['walletA.paymentToken', 'tok_abc'],
      ['walletA.cardNetwork', 'VISA'],
      ['walletA.cardType', 'CREDIT'],
      ['billing.street1', 'Hauptstraße 1'],
      ['billing.city', 'Berlin'],
      ['billing.postcode', '10115'],
      ['billing.country', 'DE'],
      ['customer.givenName', 'Jane Mary'],
      ['customer.surname', 'Jones'],
      ['customer.phone', '+49 30 1234567'],
    ]);
  });

  it('sends only the token for walletB and walletC, and no billing without an address', () => {
    const { billingAddress: _, ...bare } = PAYMENT_DATA;
    expect(walletFields('walletB', bare)).toEqual([['walletB.paymentToken', 'tok_abc']]);
    expect(walletFields('walletC', bare)).toEqual([['walletC.paymentToken', 'tok_abc']]);
  });

  it('reads the button’s colour class and data attributes from the block', () => {
    expect(buttonLook({ buttonColor: 'Gold', placement: 'Cart', productType: 'PayAndShip' })).toEqual({
      cls: ' wpwl-button-color-gold',
      attrs: { 'data-placement': 'Cart', 'data-product-type': 'PayAndShip' },
    });
    expect(buttonLook({ buttonColor: 'red; x' })).toEqual({ cls: '', attrs: {} });
    expect(buttonLook({ buttonColor: 'purple' })).toEqual({ cls: '', attrs: {} });
  });

  it.each(['Gold', 'LightGray', 'DarkGray', 'black', 'white'])(
    'walletC.buttonColor %s has its class, and paymentWidgets.css styles it (idle and hover)',
    (color) => {
      const { cls } = buttonLook({ buttonColor: color });
      expect(cls).toBe(` wpwl-button-color-${color.toLowerCase()}`);
      expect(BUTTON_COLORS).toContain(color.toLowerCase());
      const css = readFileSync(new URL('../../styles/paymentWidgets.css', import.meta.url), 'utf8');
      const rule = new RegExp(`\\.wpwl-button-color-${color.toLowerCase()} \\{[^}]*background:`);
      expect(css).toMatch(rule);
      expect(css).toContain(`.wpwl-button-color-${color.toLowerCase()}:hover:not(:disabled)`);
    },
  );

  it('gives the sheet the block without its callbacks', () => {
    const options = sheetOptions({
      merchantName: 'Shop',
      displayItems: [{ label: 'Tee', type: 'LINE_ITEM', price: '10.00' }],
      onPaymentAuthorized: () => ({ transactionState: 'SUCCESS' }),
      onPaymentDataChanged: () => ({}),
    });
    expect(options).toEqual({
      merchantName: 'Shop',
      displayItems: [{ label: 'Tee', type: 'LINE_ITEM', price: '10.00' }],
    });
    expect(() => structuredClone(options)).not.toThrow();
  });

  it('accepts paymentData only with a token', () => {
    expect(readPaymentData(PAYMENT_DATA)).toEqual(PAYMENT_DATA);
    expect(readPaymentData({ paymentMethodData: { tokenizationData: { token: '' } } })).toBeUndefined();
    expect(readPaymentData(null)).toBeUndefined();
  });

  it('answers ready with init, and cancel with cancel', () => {
    const s = session({});
    s.say({ t: 'ready' });
    expect(s.replies).toEqual([{ ns: WALLET_NS, ...INIT }]);
    s.say({ t: 'cancel' });
    expect(s.cancel).toHaveBeenCalledOnce();
    s.say({ t: 'bogus' });
    expect(s.replies).toHaveLength(1);
  });

  it('forwards onPaymentDataChanged’s result (a promise) to the sheet as an update', async () => {
    const onPaymentDataChanged = vi.fn(async () => ({
      newTransactionInfo: {
        totalPrice: '95.00',
        currencyCode: 'EUR',
        displayItems: [{ label: 'Shipping', type: 'LINE_ITEM', price: '3.00' }],
      },
    }));
    const s = session({ onPaymentDataChanged });
    const address = { name: 'Jane Jones', postalCode: '10115', countryCode: 'DE' };
    s.say({ t: 'data-changed', id: 2, callbackTrigger: 'BILLING_ADDRESS', billingAddress: address });
    await vi.waitFor(() => expect(s.replies).toHaveLength(1));
    expect(onPaymentDataChanged).toHaveBeenCalledWith({
      callbackTrigger: 'BILLING_ADDRESS',
      billingAddress: address,
    });
    expect(s.replies[0]).toEqual({
      ns: WALLET_NS,
      t: 'update',
      id: 2,
      transactionInfo: {
        totalPrice: '95.00',
        currencyCode: 'EUR',
        displayItems: [{ label: 'Shipping', type: 'LINE_ITEM', price: '3.00' }],
      },
      error: undefined,
    });
  });

  it('forwards an error of onPaymentDataChanged, and a throwing one changes nothing', async () => {
    const error = {
      reason: 'BILLING_ADDRESS_INVALID',
      message: 'We do not ship there',
      intent: 'BILLING_ADDRESS',
    };
    expect(
      await dataChanged({ onPaymentDataChanged: () => ({ error }) }, 1, 'INITIALIZE', undefined),
    ).toEqual({
      t: 'update',
      id: 1,
      transactionInfo: undefined,
      error,
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = () => {
      throw new Error('boom');
    };
    expect(await dataChanged({ onPaymentDataChanged: failing }, 3, 'INITIALIZE', undefined)).toEqual({
      t: 'update',
      id: 3,
      transactionInfo: undefined,
      error: undefined,
    });
    expect(await dataChanged({}, 4, 'INITIALIZE', undefined)).toMatchObject({ t: 'update', id: 4 });
  });

  it('onPaymentAuthorized: SUCCESS pays, no callback pays, ERROR / nothing / a rejection do not', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await authorize({}, PAYMENT_DATA)).toBe(true);
    expect(
      await authorize(
        { onPaymentAuthorized: () => Promise.resolve({ transactionState: 'SUCCESS' }) },
        PAYMENT_DATA,
      ),
    ).toBe(true);
    expect(
      await authorize(
        {
          onPaymentAuthorized: () => ({
            transactionState: 'ERROR',
            error: {
              intent: 'PAYMENT_AUTHORIZATION',
              message: 'Out of stock',
              reason: 'PAYMENT_DATA_INVALID',
            },
          }),
        },
        PAYMENT_DATA,
      ),
    ).toBe('Out of stock');
    expect(await authorize({ onPaymentAuthorized: () => undefined }, PAYMENT_DATA)).toBeUndefined();
    expect(
      await authorize({ onPaymentAuthorized: () => Promise.reject(new Error('x')) }, PAYMENT_DATA),
    ).toBeUndefined();
  });

  it('an ERROR keeps the sheet open with the page’s message; a SUCCESS hands over the paymentData', async () => {
    let verdict: unknown = { transactionState: 'ERROR', error: { message: 'Card not accepted here' } };
    const onPaymentAuthorized = vi.fn(async () => verdict);
    const s = session({ onPaymentAuthorized });
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA });
    await vi.waitFor(() => expect(s.replies).toHaveLength(1));
    expect(onPaymentAuthorized).toHaveBeenCalledWith(PAYMENT_DATA);
    expect(s.replies[0]).toEqual({
      ns: WALLET_NS,
      t: 'authorized',
      transactionState: 'ERROR',
      message: 'Card not accepted here',
    });
    expect(s.done).not.toHaveBeenCalled();
    verdict = { transactionState: 'SUCCESS' };
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA });
    await vi.waitFor(() =>
      expect(s.done).toHaveBeenCalledWith(PAYMENT_DATA, { amount: undefined, currency: undefined }),
    );
    expect(s.replies).toHaveLength(1);
  });

  it('refuses paymentData without a token, and a second authorize while one runs', async () => {
    let release: (v: unknown) => void = () => undefined;
    const onPaymentAuthorized = vi.fn(() => new Promise((r) => (release = r)));
    const s = session({ onPaymentAuthorized });
    s.say({ t: 'authorize', paymentData: { paymentMethodData: {} } });
    expect(s.replies).toEqual([
      { ns: WALLET_NS, t: 'authorized', transactionState: 'ERROR', message: undefined },
    ]);
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA });
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA });
    expect(onPaymentAuthorized).toHaveBeenCalledOnce();
    release({ transactionState: 'SUCCESS' });
    await vi.waitFor(() => expect(s.done).toHaveBeenCalledOnce());
  });
});
