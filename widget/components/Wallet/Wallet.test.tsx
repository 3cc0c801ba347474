// @vitest-environment happy-dom
/**
 * Wallet buttons through the whole widget (start()): markup from the options, fast checkout, and
 * the host's side of the sheet protocol, with the test playing the sheet's window.
 */
import '../../methods'; // the payment methods register themselves, as in the bundle's entry
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepFrameSources } from '../../../server/test-kit/widget-frames';
import { CHECKOUT_ID, FUTURE, GW, json, ready, win } from '../../../server/test-kit/widget-page';
import { start, type WpwlGlobal } from '../../core/boot';
import { type PaymentData, WALLET_NS } from '../../frames/wallet-protocol';

const FAST = 'FA5T00000000000000000000000000AA.local01';

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);

const session = (id: string, over: object = {}) => ({
  id,
  kind: 'payment',
  state: 'open',
  expiresAt: FUTURE,
  amount: '92.00',
  currency: 'EUR',
  registrations: [],
  ...over,
});

const PAYMENT_DATA: PaymentData = {
  paymentMethodData: {
    type: 'CARD',
    description: 'Visa •••• 0000',
    info: { cardNetwork: 'VISA', cardDetails: '0000', cardType: 'CREDIT' },
    tokenizationData: { type: 'PAYMENT_GATEWAY', token: 'tok_abc' },
  },
  billingAddress: { name: 'Jane Jones', postalCode: '10115', countryCode: 'DE' },
};

interface Harness {
  fetch: ReturnType<typeof vi.fn>;
  navigate: ReturnType<typeof vi.fn>;
  api: WpwlGlobal;
  posts: string[];
  calls: string[];
}

function boot(
  options: Record<string, unknown>,
  {
    id = CHECKOUT_ID as string | null,
    answer = () => json({ id: 'p1', result: { code: '000.100.110' } }),
  } = {},
): Harness {
  win().wpwlOptions = { onError: () => undefined, ...options };
  const posts: string[] = [];
  const calls: string[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${url}`);
    if (init?.method === 'POST') {
      posts.push(String(init.body));
      return answer();
    }
    const match = /checkouts\/([^/]+)\/session/.exec(url);
    return json(
      session(
        decodeURIComponent(match?.[1] ?? ''),
        match?.[1] === FAST ? { amount: '15.50', currency: 'GBP' } : {},
      ),
    );
  });
  const navigate = vi.fn();
  const src = id ? `${GW}/v1/paymentWidgets.js?checkoutId=${id}` : `${GW}/v1/paymentWidgets.js`;
  const api = start({
    win: window,
    script: { src },
    fetch: fetch as unknown as typeof globalThis.fetch,
    navigate,
  });
  return { fetch, navigate, api, posts, calls };
}

const button = (brand: string) =>
  $<HTMLButtonElement>(`.wpwl-form-wallet-${brand} button.wpwl-brand-${brand}`)!;

/** The sheet's iframe once the modal shows it, with a stand-in window the test speaks for. */
async function sheet() {
  await vi.waitFor(() => expect($('.wpwl-modal iframe.wpwl-sheet')).not.toBeNull());
  const iframe = $<HTMLIFrameElement>('.wpwl-modal iframe.wpwl-sheet')!;
  const received: Record<string, unknown>[] = [];
  const w = {
    postMessage: (m: Record<string, unknown>, origin: string) => {
      if (origin === GW) received.push(m);
    },
  };
  Object.defineProperty(iframe, 'contentWindow', { value: w, configurable: true });
  const say = (m: Record<string, unknown>, origin = GW, source: unknown = w) =>
    window.dispatchEvent(
      new MessageEvent('message', { data: { ns: WALLET_NS, ...m }, origin, source: source as Window }),
    );
  return { iframe, received, say, w };
}

// The sheet is played by the test: its address is kept, never loaded.
keepFrameSources({ readBack: true });

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML =
    '<form action="https://shop.test/result" class="paymentWidgets" data-brands="WALLETA WALLETC WALLETD_CONTINUE"></form>';
});

afterEach(() => {
  win().wpwl?.unload();
  delete win().wpwlOptions;
  vi.restoreAllMocks();
});

describe('wallet buttons', () => {
  it('renders a button per wallet brand, with classes and attributes from its options', async () => {
    boot({ walletC: { buttonColor: 'gold', placement: 'cart', productType: 'PayAndShip', sandbox: true } });
    await ready();
    const a = button('WALLETA');
    expect(a.className).toContain('wpwl-button wpwl-button-pay wpwl-button-brand wpwl-brand-WALLETA');
    expect(a.textContent).toBe('Pay with Wallet A');
    expect(a.type).toBe('submit');
    expect($('.wpwl-container-wallet.wpwl-container-wallet-WALLETA > form.wpwl-form-wallet')).not.toBeNull();
    const c = button('WALLETC');
    expect(c.classList.contains('wpwl-button-color-gold')).toBe(true);
    expect(c.dataset.placement).toBe('cart');
    expect(c.dataset.productType).toBe('PayAndShip');
    expect(c.textContent).toBe('Pay with Wallet C');
    // The redirect wallet stays a redirect button.
    const d = $<HTMLButtonElement>(
      '.wpwl-form-onlineTransfer-WALLETD_CONTINUE .wpwl-brand-WALLETD_CONTINUE',
    )!;
    expect(d.textContent).toBe('Pay with Wallet D');
  });

  it('opens the sheet with the checkout, the options without callbacks, amount, currency and language', async () => {
    const h = boot({
      locale: 'fr',
      walletA: {
        merchantName: 'Demo shop',
        displayItems: [{ label: 'Tee', type: 'LINE_ITEM', price: '92.00' }],
        billingAddressRequired: true,
        billingAddressParameters: { format: 'MIN', phoneNumberRequired: false },
        onPaymentAuthorized: () => ({ transactionState: 'SUCCESS' }),
      },
      walletC: { ledgerCurrency: 'USD', checkoutLanguage: 'de_DE' },
    });
    await ready();
    button('WALLETA').click();
    const s = await sheet();
    expect(s.iframe.src).toBe(
      `${GW}/v1/widget/frames/wallet-sheet.html#o=${encodeURIComponent(location.origin)}`,
    );
    expect(s.iframe.getAttribute('title')).toBe($('.wpwl-modal-title')!.textContent);
    s.say({ t: 'ready' });
    expect(s.received).toEqual([
      {
        ns: WALLET_NS,
        t: 'init',
        wallet: 'walletA',
        checkoutId: CHECKOUT_ID,
        options: {
          merchantName: 'Demo shop',
          displayItems: [{ label: 'Tee', type: 'LINE_ITEM', price: '92.00' }],
          billingAddressRequired: true,
          billingAddressParameters: { format: 'MIN', phoneNumberRequired: false },
        },
        amount: '92.00',
        currency: 'EUR',
        locale: 'fr',
      },
    ]);
    s.say({ t: 'cancel' });
    await vi.waitFor(() => expect($('.wpwl-modal')).toBeNull());
    button('WALLETC').click();
    const c = await sheet();
    c.say({ t: 'ready' });
    // ledgerCurrency is the merchant's ledger: the sheet shows the checkout's currency.
    expect(c.received[0]).toMatchObject({
      wallet: 'walletC',
      amount: '92.00',
      currency: 'EUR',
      locale: 'de',
    });
    expect(h.posts).toEqual([]);
  });

  it('shows the checkout’s amount and currency in the sheet, not the block’s or wpwlOptions.checkout’s', async () => {
    const h = boot({
      checkout: { amount: '10.00', currency: 'USD' },
      walletA: {
        amount: '12.00',
        currencyCode: 'GBP',
        onPaymentAuthorized: () => ({ transactionState: 'SUCCESS' }),
      },
    });
    await ready();
    // The pay label and wpwl.checkout say what the checkout charges too.
    expect(h.api.checkout.amount).toBe('92.00');
    expect(h.api.checkout.currency).toBe('EUR');
    button('WALLETA').click();
    const s = await sheet();
    s.say({ t: 'ready' });
    expect(s.received[0]).toMatchObject({ amount: '92.00', currency: 'EUR' });
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA });
    await vi.waitFor(() => expect(h.navigate).toHaveBeenCalled());
    expect(h.posts).toHaveLength(1);
  });

  it('pays nothing when onPaymentDataChanged gave the sheet a total the checkout does not charge', async () => {
    const h = boot({
      walletA: {
        onPaymentDataChanged: () => ({ newTransactionInfo: { totalPrice: '99.00', currencyCode: 'EUR' } }),
        onPaymentAuthorized: () => ({ transactionState: 'SUCCESS' }),
      },
    });
    await ready();
    button('WALLETA').click();
    const s = await sheet();
    s.say({ t: 'data-changed', id: 1, callbackTrigger: 'INITIALIZE' });
    await vi.waitFor(() => expect(s.received).toHaveLength(1));
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA });
    await vi.waitFor(() =>
      expect($('.wpwl-form-wallet-WALLETA .wpwl-message')!.textContent).toBe(
        'The amount to pay is now €92.00. Nothing has been charged: please check it and pay again.',
      ),
    );
    expect($('.wpwl-modal')).toBeNull();
    expect(h.posts).toEqual([]);
    expect(h.navigate).not.toHaveBeenCalled();
    expect(button('WALLETA').disabled).toBe(false);
  });

  it('ignores messages from another origin or another window, both ways', async () => {
    boot({});
    await ready();
    button('WALLETA').click();
    const s = await sheet();
    s.say({ t: 'ready' }, 'https://evil.test');
    s.say({ t: 'ready' }, GW, window);
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA }, 'https://evil.test');
    s.say({ t: 'cancel' }, GW, {});
    await new Promise((r) => setTimeout(r, 20));
    expect(s.received).toEqual([]);
    expect($('.wpwl-modal')).not.toBeNull();
    s.say({ t: 'ready' });
    expect(s.received).toHaveLength(1);
  });

  it('pays with the sheet’s token once onPaymentAuthorized says SUCCESS, then goes to the result page', async () => {
    const onPaymentAuthorized = vi.fn(async () => ({ transactionState: 'SUCCESS' }));
    const h = boot({ walletA: { onPaymentAuthorized } });
    await ready();
    button('WALLETA').click();
    const s = await sheet();
    s.say({ t: 'ready' });
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA });
    await vi.waitFor(() => expect(h.navigate).toHaveBeenCalled());
    expect(onPaymentAuthorized).toHaveBeenCalledWith(PAYMENT_DATA);
    expect($('.wpwl-modal')).toBeNull();
    expect(h.posts).toHaveLength(1);
    const sent = new URLSearchParams(h.posts[0]);
    expect([...sent.keys()].slice(0, 9)).toEqual([
      'paymentBrand',
      'walletA.paymentToken',
      'walletA.cardNetwork',
      'walletA.cardType',
      'billing.postcode',
      'billing.country',
      'customer.givenName',
      'customer.surname',
      'customer.browser.acceptHeader',
    ]);
    expect(sent.get('paymentBrand')).toBe('WALLETA');
    expect(sent.get('walletA.paymentToken')).toBe('tok_abc');
    expect(sent.get('customer.surname')).toBe('Jones');
    expect(sent.get('shopperResultUrl')).toBe('https://shop.test/result');
    expect(h.calls.at(-1)).toBe(`POST ${GW}/v1/checkouts/${CHECKOUT_ID}/payment`);
    expect(h.navigate).toHaveBeenCalledWith(
      `https://shop.test/result?id=${CHECKOUT_ID}&resourcePath=%2Fv1%2Fcheckouts%2F${CHECKOUT_ID}%2Fpayment`,
    );
  });

  it('keeps the sheet open on ERROR, telling it the page’s message, and pays nothing', async () => {
    const h = boot({
      walletA: {
        onPaymentAuthorized: () =>
          Promise.resolve({
            transactionState: 'ERROR',
            error: { intent: 'PAYMENT_AUTHORIZATION', message: 'No' },
          }),
      },
    });
    await ready();
    button('WALLETA').click();
    const s = await sheet();
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA });
    await vi.waitFor(() => expect(s.received).toHaveLength(1));
    expect(s.received[0]).toEqual({
      ns: WALLET_NS,
      t: 'authorized',
      transactionState: 'ERROR',
      message: 'No',
    });
    expect($('.wpwl-modal iframe.wpwl-sheet')).not.toBeNull();
    expect(h.posts).toEqual([]);
    expect(button('WALLETA').disabled).toBe(true);
  });

  it('forwards onPaymentDataChanged’s answer to the sheet', async () => {
    const onPaymentDataChanged = vi.fn(() =>
      Promise.resolve({ newTransactionInfo: { totalPrice: '99.00', currencyCode: 'EUR' } }),
    );
    boot({ walletA: { onPaymentDataChanged } });
    await ready();
    button('WALLETA').click();
    const s = await sheet();
    s.say({ t: 'data-changed', id: 1, callbackTrigger: 'INITIALIZE' });
    await vi.waitFor(() => expect(s.received).toHaveLength(1));
    expect(onPaymentDataChanged).toHaveBeenCalledWith({ callbackTrigger: 'INITIALIZE' });
    expect(s.received[0]).toMatchObject({
      t: 'update',
      id: 1,
      transactionInfo: { totalPrice: '99.00', currencyCode: 'EUR' },
    });
  });

  it('a cancel in the sheet closes it like the modal’s close button: cancelled message, onLightboxCancel', async () => {
    const onLightboxCancel = vi.fn();
    const h = boot({ onLightboxCancel });
    await ready();
    const a = button('WALLETA');
    a.focus();
    a.click();
    const s = await sheet();
    s.say({ t: 'cancel' });
    await vi.waitFor(() => expect($('.wpwl-modal')).toBeNull());
    await vi.waitFor(() => expect(button('WALLETA').disabled).toBe(false));
    expect($('.wpwl-form-wallet-WALLETA .wpwl-message')!.textContent).toBe(
      'The payment was cancelled. You can choose another payment method.',
    );
    expect(onLightboxCancel).toHaveBeenCalledOnce();
    expect(h.posts).toEqual([]);
  });

  it('shows a decline on the wallet’s form and keeps it usable', async () => {
    boot(
      {},
      {
        answer: () =>
          json({ id: 'p1', result: { code: '800.100.151', description: 'transaction declined' } }, 400),
      },
    );
    await ready();
    button('WALLETA').click();
    const s = await sheet();
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA });
    await vi.waitFor(() => expect(button('WALLETA').disabled).toBe(false));
    expect($('.wpwl-form-wallet-WALLETA .wpwl-message')!.textContent).toMatch(/declined/);
  });
});

describe('fast checkout', () => {
  it('reads nothing before the click; createCheckout({brand}) returning a thenable, then the new session, then the sheet', async () => {
    const createCheckout = vi.fn(() => ({
      // A thenable, not a Promise.
      // biome-ignore lint/suspicious/noThenProperty: createCheckout may return any thenable
      then(resolve: (id: string) => void) {
        setTimeout(() => resolve(FAST), 5);
      },
    }));
    const h = boot({ createCheckout }, { id: null });
    await ready();
    expect(h.fetch).not.toHaveBeenCalled();
    button('WALLETA').click();
    const s = await sheet();
    expect(createCheckout).toHaveBeenCalledOnce();
    expect(createCheckout).toHaveBeenCalledWith({ brand: 'WALLETA' });
    expect(h.calls).toEqual([`GET ${GW}/v1/checkouts/${FAST}/session`]);
    s.say({ t: 'ready' });
    expect(s.received[0]).toMatchObject({ checkoutId: FAST, amount: '15.50', currency: 'GBP' });
    expect(h.api.checkout.id).toBe(FAST);
  });

  it.each([
    ['rejects', () => Promise.reject(new Error('shop down'))],
    [
      'throws',
      () => {
        throw new Error('bug');
      },
    ],
    ['resolves empty', () => Promise.resolve('')],
    ['returns nothing', () => undefined],
  ])('createCheckout that %s: a clear message next to the button, which stays usable', async (_, impl) => {
    const createCheckout = vi.fn(impl);
    const h = boot({ createCheckout }, { id: null });
    await ready();
    button('WALLETA').click();
    await vi.waitFor(() =>
      expect($('.wpwl-form-wallet-WALLETA .wpwl-message')!.textContent).toBe(
        'The payment could not be started. Please try again.',
      ),
    );
    expect(button('WALLETA').disabled).toBe(false);
    expect($('.wpwl-widget > .wpwl-message')!.textContent).toBe('');
    expect($('.wpwl-modal')).toBeNull();
    expect(h.fetch).not.toHaveBeenCalled();
    // Usable: the next click asks again.
    button('WALLETA').click();
    await vi.waitFor(() => expect(createCheckout).toHaveBeenCalledTimes(2));
  });

  it('stops before the sheet when createCheckout’s checkout is not the amount the wallet promised; the next click pays what is shown', async () => {
    const createCheckout = vi.fn(async () => FAST);
    const onPaymentAuthorized = vi.fn(() => ({ transactionState: 'SUCCESS' }));
    // The fast-checkout amount: 92.00 EUR; the checkout createCheckout made: 15.50 GBP.
    const h = boot(
      { createCheckout, walletA: { amount: '92.00', currencyCode: 'EUR', onPaymentAuthorized } },
      { id: null },
    );
    await ready();
    button('WALLETA').click();
    await vi.waitFor(() =>
      expect($('.wpwl-form-wallet-WALLETA .wpwl-message')!.textContent).toBe(
        'The amount to pay is now £15.50. Nothing has been charged: please check it and pay again.',
      ),
    );
    expect($('.wpwl-modal')).toBeNull();
    expect(h.posts).toEqual([]);
    await vi.waitFor(() => expect(button('WALLETA').disabled).toBe(false));
    button('WALLETA').click();
    const s = await sheet();
    s.say({ t: 'ready' });
    expect(s.received[0]).toMatchObject({ checkoutId: FAST, amount: '15.50', currency: 'GBP' });
    s.say({ t: 'authorize', paymentData: PAYMENT_DATA });
    await vi.waitFor(() => expect(h.navigate).toHaveBeenCalled());
    expect(createCheckout).toHaveBeenCalledOnce();
    expect(h.posts).toHaveLength(1);
  });

  it('a form’s label shows wpwlOptions.checkout until createCheckout’s checkout, whose other amount stops the payment', async () => {
    document.body.innerHTML =
      '<form action="https://shop.test/result" class="paymentWidgets" data-brands="DIRECTDEBIT_SEPA"></form>';
    const createCheckout = vi.fn(async () => FAST);
    const h = boot({ createCheckout, checkout: { amount: '92.00', currency: 'EUR' } }, { id: null });
    await ready();
    const pay = () => $<HTMLButtonElement>('.wpwl-form-directDebit .wpwl-button-pay')!;
    expect(pay().textContent).toBe('Pay €92.00');
    expect(h.api.checkout.amount).toBe('92.00');
    const type = (name: string, value: string) => {
      const input = $<HTMLInputElement>(`.wpwl-form-directDebit input[name="${name}"]`)!;
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    type('bankAccount.holder', 'Jane Jones');
    type('bankAccount.iban', 'DE23100000001234567890');
    pay().click();
    await vi.waitFor(() =>
      expect($('.wpwl-form-directDebit .wpwl-message')!.textContent).toBe(
        'The amount to pay is now £15.50. Nothing has been charged: please check it and pay again.',
      ),
    );
    expect(h.posts).toEqual([]);
    // The label now says what the checkout charges, and the next click pays it.
    await vi.waitFor(() => expect(pay().textContent).toBe('Pay £15.50'));
    expect(h.api.checkout.amount).toBe('15.50');
    await vi.waitFor(() => expect(pay().disabled).toBe(false));
    pay().click();
    await vi.waitFor(() => expect(h.navigate).toHaveBeenCalled());
    expect(h.posts).toHaveLength(1);
    expect(createCheckout).toHaveBeenCalledOnce();
  });

  it('the redirect wallet WALLETD_CONTINUE: createCheckout, the brand posted, the redirect followed', async () => {
    const createCheckout = vi.fn(async () => FAST);
    const redirect = { url: `${GW}/v1/simulator/provider`, parameters: [{ name: 'ref', value: 'r1' }] };
    const submitted: HTMLFormElement[] = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      submitted.push(this);
    });
    const h = boot(
      { createCheckout },
      { id: null, answer: () => json({ id: 'p1', result: { code: '000.200.000' }, redirect }) },
    );
    await ready();
    $<HTMLButtonElement>('.wpwl-brand-WALLETD_CONTINUE')!.click();
    await vi.waitFor(() => expect(submitted).toHaveLength(1));
    expect(createCheckout).toHaveBeenCalledWith({ brand: 'WALLETD_CONTINUE' });
    expect(new URLSearchParams(h.posts[0]).get('paymentBrand')).toBe('WALLETD_CONTINUE');
    expect(submitted[0]!.getAttribute('action')).toBe(redirect.url);
  });
});
