// @vitest-environment happy-dom
/**
 * The wallet sheet inside its frame; the test plays the host page (window.parent) and the gateway
 * (the test cards, the token, the languages).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECKOUT_ID, GW, json } from '../../server/test-kit/widget-page';
import de from '../language/locales/de.json';
import { startSheet } from './sheet';
import { type PaymentData, WALLET_NS } from './wallet-protocol';

const PAGE = 'https://shop.test';
const HREF = `${GW}/v1/widget/frames/wallet-sheet.html#o=${encodeURIComponent(PAGE)}`;
const CARDS = [
  { id: 'visa', label: 'Visa •••• 0000', network: 'VISA', type: 'CREDIT' },
  { id: 'mastercard', label: 'Mastercard •••• 5454', network: 'MASTERCARD', type: 'DEBIT' },
];

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);

let stop: (() => void) | undefined;

function sheet({
  href = HREF,
  ancestorOrigin = PAGE as string | undefined,
  token = () => json({ paymentToken: 'tok_1', cardNetwork: 'VISA', cardType: 'CREDIT', last4: '0000' }),
} = {}) {
  const root = document.createElement('main');
  document.body.append(root);
  const sent: { m: Record<string, unknown>; origin: string }[] = [];
  const parent = {
    postMessage: (m: Record<string, unknown>, origin: string) => {
      sent.push({ m, origin });
    },
  } as unknown as Window;
  const posts: string[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === `${GW}/simulators/wallets/cards`) return json({ cards: CARDS });
    if (url === `${GW}/simulators/wallets/token`) {
      posts.push(String(init?.body));
      return token();
    }
    if (url === `${GW}/v1/widget/locales/de.json`) return json(de);
    return json({}, 404);
  });
  stop = startSheet({
    window,
    href,
    parent,
    fetch: fetch as unknown as typeof globalThis.fetch,
    ancestorOrigin,
    root,
  });
  const host = (m: Record<string, unknown>, origin = PAGE, source: unknown = parent) =>
    window.dispatchEvent(
      new MessageEvent('message', { data: { ns: WALLET_NS, ...m }, origin, source: source as Window }),
    );
  const messages = () => sent.map((s) => s.m);
  const last = (t: string) =>
    messages()
      .filter((m) => m.t === t)
      .at(-1);
  return { root, sent, messages, last, host, fetch, posts, started: stop !== undefined };
}

const init = (over: Record<string, unknown> = {}, options: Record<string, unknown> = {}) => ({
  t: 'init',
  wallet: 'walletA',
  checkoutId: CHECKOUT_ID,
  amount: '92.00',
  currency: 'EUR',
  locale: 'en',
  ...over,
  options: { merchantName: 'Demo shop', ...options },
});

const type = (id: string, value: string) => {
  const el = document.getElementById(id) as HTMLInputElement | HTMLSelectElement;
  el.value = value;
  el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
  if (el.tagName !== 'SELECT') el.dispatchEvent(new FocusEvent('blur'));
};
const pay = () => $<HTMLButtonElement>('button.pay')!.click();
const cardsShown = () => vi.waitFor(() => expect($('input[name=card]')).not.toBeNull());

beforeEach(() => {
  document.body.innerHTML = '';
  document.documentElement.lang = 'en';
});
afterEach(() => {
  stop?.();
  stop = undefined;
  vi.restoreAllMocks();
});

describe('wallet sheet', () => {
  it('refuses to run without the page origin, or when the browser names another ancestor', () => {
    expect(sheet({ href: `${GW}/v1/widget/frames/wallet-sheet.html` }).started).toBe(false);
    expect(sheet({ ancestorOrigin: 'https://evil.test' }).started).toBe(false);
  });

  it('says ready to the page origin only, and takes init only from the parent with that origin', async () => {
    const s = sheet();
    expect(s.sent).toEqual([{ m: { ns: WALLET_NS, t: 'ready' }, origin: PAGE }]);
    s.host(init(), 'https://evil.test');
    s.host(init(), PAGE, window);
    await new Promise((r) => setTimeout(r, 10));
    expect($('.loading')).not.toBeNull();
    expect(s.messages()).toHaveLength(1);
    s.host(init());
    await vi.waitFor(() => expect($('h1')!.textContent).toBe('Wallet A (simulated)'));
    for (const { origin } of s.sent) expect(origin).toBe(PAGE);
  });

  it('shows the merchant, the items, the total and the test cards; asks the page with INITIALIZE', async () => {
    const s = sheet();
    s.host(
      init(
        {},
        {
          displayItems: [
            { label: 'Tee', type: 'LINE_ITEM', price: '80.00' },
            { label: 'VAT', type: 'TAX', price: '12.00' },
          ],
        },
      ),
    );
    await cardsShown();
    expect($('.merchant')!.textContent).toBe('Pay Demo shop');
    expect(Array.from(document.querySelectorAll('.item')).map((li) => li.textContent)).toEqual([
      'Tee€80.00',
      'VAT€12.00',
    ]);
    expect($('.total strong')!.textContent).toBe('€92.00');
    expect($('button.pay')!.textContent).toBe('Pay €92.00');
    expect(Array.from(document.querySelectorAll('.card')).map((c) => c.textContent)).toEqual(
      CARDS.map((c) => c.label),
    );
    expect($<HTMLInputElement>('input[value=visa]')!.checked).toBe(true);
    expect($('.badge')).toBeNull();
    expect($('.billing')).toBeNull();
    expect(s.last('data-changed')).toEqual({
      ns: WALLET_NS,
      t: 'data-changed',
      id: 1,
      callbackTrigger: 'INITIALIZE',
    });
  });

  it('walletC: the sandbox badge, the ledger currency and the checkout language', async () => {
    const s = sheet();
    s.host(
      init({ wallet: 'walletC', currency: 'USD', locale: 'de' }, { sandbox: true, merchantName: undefined }),
    );
    await vi.waitFor(() => expect($('h1')!.textContent).toBe('Wallet C (simuliert)'));
    expect(document.documentElement.lang).toBe('de');
    expect($('.badge')!.textContent).toBe('Sandbox');
    expect($('.total strong')!.textContent).toMatch(/^92,00\s\$$/);
    expect($('.merchant')).toBeNull();
    expect(s.fetch).toHaveBeenCalledWith(`${GW}/v1/widget/locales/de.json`, { credentials: 'omit' });
  });

  it('shows the page’s new total and items from an update to its latest change', async () => {
    const s = sheet();
    s.host(init());
    await cardsShown();
    s.host({
      t: 'update',
      id: 1,
      transactionInfo: {
        totalPrice: '95.00',
        displayItems: [{ label: 'Shipping', type: 'LINE_ITEM', price: '3.00' }],
      },
    });
    await vi.waitFor(() => expect($('.total strong')!.textContent).toBe('€95.00'));
    expect($('.item')!.textContent).toBe('Shipping€3.00');
    // An answer to an older question changes nothing.
    s.host({ t: 'update', id: 0, transactionInfo: { totalPrice: '1.00' } });
    expect($('.total strong')!.textContent).toBe('€95.00');
  });

  it('MIN billing address: name, postcode, country; the page hears of a complete address; pay sends the token and address', async () => {
    const s = sheet();
    s.host(init({}, { billingAddressRequired: true, billingAddressParameters: { format: 'MIN' } }));
    await cardsShown();
    s.host({ t: 'update', id: 1 });
    expect(
      Array.from(document.querySelectorAll('.billing .field')).map(
        (f) => f.querySelector('input, select')!.id,
      ),
    ).toEqual(['name', 'postcode', 'country']);
    expect($('label[for=postcode]')!.textContent).toBe('Postcode');
    pay();
    await vi.waitFor(() => expect($('#name')!.getAttribute('aria-invalid')).toBe('true'));
    expect($('#name-error')!.textContent).toBe('Please fill in this field.');
    expect($('#country-error')!.textContent).toBe('Please choose a country.');
    expect(document.activeElement?.id).toBe('name');
    expect(s.last('authorize')).toBeUndefined();
    type('name', 'Jane');
    expect($('#name-error')!.textContent).toBe('Please enter your first and last name.');
    type('name', 'Jane Jones');
    type('postcode', '10115');
    type('country', 'DE');
    expect(s.last('data-changed')).toEqual({
      ns: WALLET_NS,
      t: 'data-changed',
      id: 2,
      callbackTrigger: 'BILLING_ADDRESS',
      billingAddress: { name: 'Jane Jones', postalCode: '10115', countryCode: 'DE' },
    });
    $<HTMLInputElement>('input[value=mastercard]')!.click();
    // Pay while the page still answers: the sheet waits for it.
    pay();
    expect(s.posts).toEqual([]);
    s.host({ t: 'update', id: 2 });
    await vi.waitFor(() => expect(s.last('authorize')).toBeDefined());
    expect(new URLSearchParams(s.posts[0])).toEqual(
      new URLSearchParams({ wallet: 'walletA', checkoutId: CHECKOUT_ID, card: 'mastercard' }),
    );
    const { paymentData } = s.last('authorize') as { paymentData: PaymentData };
    expect(paymentData).toEqual({
      paymentMethodData: {
        type: 'CARD',
        description: 'Mastercard •••• 5454',
        info: { cardNetwork: 'VISA', cardDetails: '0000', cardType: 'CREDIT' },
        tokenizationData: { type: 'PAYMENT_GATEWAY', token: 'tok_1' },
      },
      billingAddress: { name: 'Jane Jones', postalCode: '10115', countryCode: 'DE' },
    });
    expect($('button.pay')!.getAttribute('aria-busy')).toBe('true');
  });

  it('FULL billing address with phone', async () => {
    const s = sheet();
    s.host(
      init(
        {},
        {
          billingAddressRequired: true,
          billingAddressParameters: { format: 'FULL', phoneNumberRequired: true },
        },
      ),
    );
    await cardsShown();
    s.host({ t: 'update', id: 1 });
    expect(
      Array.from(document.querySelectorAll('.billing .field')).map(
        (f) => f.querySelector('input, select')!.id,
      ),
    ).toEqual(['name', 'street', 'city', 'postcode', 'country', 'phone']);
    type('name', 'Jane Jones');
    type('street', 'Main Street 1');
    type('city', 'Springfield');
    type('postcode', 'SW1A 1AA');
    type('country', 'GB');
    type('phone', 'call me');
    expect($('#phone-error')!.textContent).toBe('Please enter a valid phone number.');
    type('phone', '+44 20 7946 0000');
    await vi.waitFor(() => expect(s.last('data-changed')).toMatchObject({ id: 2 }));
    s.host({ t: 'update', id: 2 });
    pay();
    await vi.waitFor(() => expect(s.last('authorize')).toBeDefined());
    expect((s.last('authorize') as { paymentData: PaymentData }).paymentData.billingAddress).toEqual({
      name: 'Jane Jones',
      address1: 'Main Street 1',
      locality: 'Springfield',
      postalCode: 'SW1A 1AA',
      countryCode: 'GB',
      phoneNumber: '+44 20 7946 0000',
    });
  });

  it('an error from onPaymentDataChanged stops Pay until the data changes', async () => {
    const s = sheet();
    s.host(init());
    await cardsShown();
    s.host({
      t: 'update',
      id: 1,
      error: { reason: 'OTHER_ERROR', message: 'We do not deliver there', intent: 'BILLING_ADDRESS' },
    });
    await vi.waitFor(() => expect($('.message')!.textContent).toBe('We do not deliver there'));
    pay();
    await new Promise((r) => setTimeout(r, 10));
    expect(s.posts).toEqual([]);
  });

  it('onPaymentAuthorized ERROR: the sheet stays, shows the message and can pay again', async () => {
    const s = sheet();
    s.host(init());
    await cardsShown();
    s.host({ t: 'update', id: 1 });
    pay();
    await vi.waitFor(() => expect(s.last('authorize')).toBeDefined());
    s.host({ t: 'authorized', transactionState: 'ERROR', message: 'Card not accepted here' });
    await vi.waitFor(() => expect($('.message')!.textContent).toBe('Card not accepted here'));
    expect($<HTMLButtonElement>('button.pay')!.disabled).toBe(false);
    s.host({ t: 'authorized', transactionState: 'ERROR' });
    await vi.waitFor(() =>
      expect($('.message')!.textContent).toBe(
        'The payment was not authorised. Please try again or choose another card.',
      ),
    );
    pay();
    await vi.waitFor(() => expect(s.messages().filter((m) => m.t === 'authorize')).toHaveLength(2));
  });

  it('a token the gateway refuses: a message, no authorize', async () => {
    const s = sheet({ token: () => json({ error: 'unknown card' }, 400) });
    s.host(init());
    await cardsShown();
    s.host({ t: 'update', id: 1 });
    pay();
    await vi.waitFor(() =>
      expect($('.message')!.textContent).toBe('The wallet could not prepare the payment. Please try again.'),
    );
    expect(s.last('authorize')).toBeUndefined();
  });

  it('Cancel and Escape tell the page', async () => {
    const s = sheet();
    s.host(init());
    await cardsShown();
    $<HTMLButtonElement>('button.cancel')!.click();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(s.messages().filter((m) => m.t === 'cancel')).toHaveLength(2);
  });
});
