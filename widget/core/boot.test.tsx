// @vitest-environment happy-dom
import '../methods'; // the payment methods register themselves, as in the bundle's entry
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepFrameSources, playFrame } from '../../server/test-kit/widget-frames';
import {
  CHECKOUT_ID,
  GW,
  json,
  openSession,
  ready,
  WIDGET_SCRIPT,
  win,
} from '../../server/test-kit/widget-page';
import { type HostMessage, NS, readFrameHash } from '../frames/protocol';
import { start, type WpwlGlobal } from './boot';

interface Harness {
  fetch: ReturnType<typeof vi.fn>;
  navigate: ReturnType<typeof vi.fn>;
  api: WpwlGlobal;
  errors: Error[];
}

function boot(
  options: Record<string, unknown> = {},
  responses: (url: string, init?: RequestInit) => Response | Promise<Response> = () => json(openSession()),
  script = WIDGET_SCRIPT,
): Harness {
  const errors: Error[] = [];
  win().wpwlOptions = { onError: (e: Error) => errors.push(e), ...options };
  const fetch = vi.fn(async (url: string, init?: RequestInit) => responses(url, init));
  const navigate = vi.fn();
  const api = start({
    win: window,
    script: { src: script },
    fetch: fetch as unknown as typeof globalThis.fetch,
    navigate,
  });
  return { fetch, navigate, api, errors };
}

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);
const $$ = (sel: string) => Array.from(document.querySelectorAll(sel));

/** The frame side of the protocol, played by the test. */
const frame = (cls: 'cardNumber' | 'cvv', root: ParentNode = document) =>
  playFrame(root.querySelector<HTMLIFrameElement>(`iframe.wpwl-control-${cls}`)!);

function typeInto(input: HTMLInputElement, value: string) {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

async function fillCard(number = 'VISA') {
  const n = frame('cardNumber');
  const c = frame('cvv');
  n.say(n.hello);
  c.say(c.hello);
  n.say({
    t: 'state',
    empty: false,
    valid: true,
    brand: number,
    brands: [number],
    length: 16,
    last4: '0000',
  });
  c.say({ t: 'state', empty: false, valid: true, brand: null, brands: [], length: 3, last4: null });
  typeInto($<HTMLInputElement>('.wpwl-control-expiry')!, '05 / 34');
  typeInto($<HTMLInputElement>('.wpwl-control-cardHolder')!, 'Jane Jones');
  return { n, c };
}

const submit = () => $<HTMLButtonElement>('.wpwl-form-card .wpwl-button-pay')!.click();

/** A submission's fields: the form's own, and what every submission adds (browser data, shopperResultUrl). */
function split(fields: readonly (readonly [string, string])[]) {
  const own: Record<string, string> = {};
  const added: Record<string, string> = {};
  for (const [name, value] of fields) {
    if (name.startsWith('customer.browser.') || name === 'shopperResultUrl') added[name] = value;
    else own[name] = value;
  }
  return { own, added };
}

// The frames are played by the test: their address is kept, never loaded.
keepFrameSources();

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = `<form action="https://shop.test/return" class="paymentWidgets" data-brands="VISA  MASTER
    AMEX"></form>`;
});

afterEach(() => {
  win().wpwl?.unload();
  delete win().wpwlOptions;
  vi.restoreAllMocks();
});

describe('boot', () => {
  it('renders the card form with the family classes before the page form, and hides that form', async () => {
    boot();
    await ready();
    const form = $('form.paymentWidgets')!;
    expect(form.hidden).toBe(true);
    expect(form.previousElementSibling?.classList.contains('wpwl-widget')).toBe(true);
    for (const cls of [
      'form.wpwl-form.wpwl-form-card',
      '.wpwl-group.wpwl-group-brand',
      '.wpwl-group-cardNumber .wpwl-label-cardNumber',
      '.wpwl-group-cardNumber .wpwl-wrapper-cardNumber iframe.wpwl-control.wpwl-control-iframe.wpwl-control-cardNumber',
      '.wpwl-group-expiry .wpwl-wrapper-expiry input.wpwl-control-expiry[name="card.expiry"][autocomplete="cc-exp"]',
      '.wpwl-group-cardHolder input.wpwl-control-cardHolder[name="card.holder"][autocomplete="cc-name"]',
      '.wpwl-group-cvv iframe.wpwl-control-iframe.wpwl-control-cvv',
      'select.wpwl-control-brand[name="paymentBrand"]',
      '.wpwl-brand.wpwl-brand-card',
      '.wpwl-group-submit button.wpwl-button.wpwl-button-pay',
    ]) {
      expect($(cls), cls).not.toBeNull();
    }
    expect($$('select.wpwl-control-brand option').map((o) => o.getAttribute('value'))).toEqual([
      'VISA',
      'MASTER',
      'AMEX',
    ]);
    for (const iframe of $$('iframe')) {
      expect(iframe.getAttribute('title')).toBeTruthy();
      expect((iframe as HTMLIFrameElement).dataset.testSrc).toMatch(
        /^https:\/\/gw\.test\/v1\/widget\/frames\/card-field\.html\?(number|cvv)#f=/,
      );
    }
    // Each frame's address binds it to this page's origin and this checkout, the two to one group.
    const bound = $$('iframe').map((el) =>
      readFrameHash(new URL((el as HTMLIFrameElement).dataset.testSrc!).hash),
    );
    expect(bound.map((p) => [p?.field, p?.origin, p?.checkout])).toEqual([
      ['number', location.origin, CHECKOUT_ID],
      ['cvv', location.origin, CHECKOUT_ID],
    ]);
    expect(bound[0]!.group).toBe(bound[1]!.group);
    expect($('.wpwl-button-pay')!.textContent).toContain('92.00');
    // No nested forms, no inline scripts, the stylesheet from the gateway.
    expect($$('form form')).toHaveLength(0);
    expect($$('script')).toHaveLength(0);
    expect($('link[rel="stylesheet"]')?.getAttribute('href')).toBe(`${GW}/v1/widget/paymentWidgets.css`);
  });

  it('reads the checkout id from its own URL and offers wpwl.checkout', async () => {
    const h = boot();
    await ready();
    expect(h.fetch.mock.calls[0]![0]).toBe(`${GW}/v1/checkouts/${CHECKOUT_ID}/session`);
    expect(h.api.checkout).toMatchObject({
      id: CHECKOUT_ID,
      amount: '92.00',
      currency: 'EUR',
      resourcePath: `/v1/checkouts/${CHECKOUT_ID}/payment`,
    });
    expect(win().wpwl).toBe(h.api);
  });

  it('waits for the DOM when loaded in <head>', async () => {
    document.body.innerHTML = '';
    const state = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    boot();
    await new Promise((r) => setTimeout(r, 20));
    expect($('.wpwl-form-card')).toBeNull();
    document.body.innerHTML = '<form class="paymentWidgets" data-brands="VISA"></form>';
    state.mockReturnValue('interactive');
    document.dispatchEvent(new Event('DOMContentLoaded'));
    await ready();
    expect($('.wpwl-form-card')).not.toBeNull();
  });

  it('reads the legacy brand list from the form text', async () => {
    document.body.innerHTML = '<form class="paymentWidgets"> VISA   DIRECTDEBIT_SEPA </form>';
    boot();
    await ready();
    expect($('.wpwl-form-card')).not.toBeNull();
    expect($('.wpwl-form-directDebit')).not.toBeNull();
  });

  it('unloads and loads again for a new checkout', async () => {
    const first = boot();
    await ready();
    first.api.unload();
    expect($('.wpwl-widget')).toBeNull();
    expect($('form.paymentWidgets')!.hidden).toBe(false);
    expect($('link[data-wpwl]')).toBeNull();
    const second = boot(
      {},
      () => json(openSession({ id: 'NEW' })),
      `${GW}/v1/paymentWidgets.js?checkoutId=NEW`,
    );
    await ready();
    expect(second.api.checkout.id).toBe('NEW');
    expect($$('.wpwl-form-card')).toHaveLength(1);
  });

  it('a second load without unload replaces the first', async () => {
    boot();
    await ready();
    boot();
    await ready();
    expect($$('.wpwl-widget')).toHaveLength(1);
  });

  it('reports InvalidCheckoutIdError for an unknown checkout and shows why', async () => {
    const h = boot({}, () => json({ result: { code: '200.300.406' } }, 404));
    await ready();
    expect(h.errors.map((e) => e.name)).toContain('InvalidCheckoutIdError');
    expect($('.wpwl-widget > .wpwl-message')!.textContent).toBe('This payment session is not valid.');
    expect($<HTMLButtonElement>('.wpwl-button-pay')!.disabled).toBe(true);
  });

  it('reports InvalidCheckoutIdError without a checkoutId and without createCheckout', async () => {
    const h = boot({}, () => json(openSession()), `${GW}/v1/paymentWidgets.js`);
    await ready();
    expect(h.errors[0]?.name).toBe('InvalidCheckoutIdError');
    expect(h.fetch).not.toHaveBeenCalled();
  });

  it('shows an expired checkout clearly', async () => {
    boot({}, () => json(openSession({ state: 'expired' })));
    await ready();
    expect($('.wpwl-widget > .wpwl-message')!.textContent).toMatch(/expired/);
  });

  it('never nests forms: a target inside a form is an error', async () => {
    document.body.innerHTML = '<form id="outer"><div></div></form>';
    const inner = document.createElement('form');
    inner.className = 'paymentWidgets';
    inner.setAttribute('data-brands', 'VISA');
    document.querySelector('#outer div')!.append(inner);
    const h = boot();
    await ready();
    expect(h.errors.map((e) => e.name)).toContain('WidgetError');
    expect($$('form form.wpwl-form')).toHaveLength(0);
    expect($('.wpwl-message')!.textContent).toMatch(/inside another form/);
  });

  it('calls onReady once the forms are there', async () => {
    const onReady = vi.fn(() => expect($('.wpwl-form-card')).not.toBeNull());
    boot({ onReady });
    await ready();
    expect(onReady).toHaveBeenCalledTimes(1);
  });
});

describe('languages', () => {
  it('loads another language from the gateway and renders Arabic right to left', async () => {
    const ar = { labels: { cardHolder: 'اسم حامل البطاقة' }, errorMessages: {} };
    const h = boot({ locale: 'ar' }, (url) =>
      url.endsWith('/locales/ar.json') ? json(ar) : json(openSession()),
    );
    await ready();
    expect(h.fetch.mock.calls.map((c) => c[0])).toContain(`${GW}/v1/widget/locales/ar.json`);
    expect($('.wpwl-widget')!.getAttribute('dir')).toBe('rtl');
    expect($('.wpwl-label-cardHolder')!.textContent).toBe('اسم حامل البطاقة');
    // Keys the file lacks fall back to English.
    expect($('.wpwl-label-cardNumber')!.textContent).toBe('Card number');
  });

  it('takes label and error overrides from wpwlOptions', async () => {
    boot({ locale: 'de-AT', labels: { cardHolder: 'Name', submit: 'Go' } }, (url) =>
      url.endsWith('/locales/de.json') ? json({ labels: { cvv: 'Prüfnummer' } }) : json(openSession()),
    );
    await ready();
    expect($('.wpwl-label-cardHolder')!.textContent).toBe('Name');
    expect($('.wpwl-label-cvv')!.textContent).toBe('Prüfnummer');
    expect($('.wpwl-button-pay')!.textContent).toBe('Go');
  });
});

describe('card payment', () => {
  it('talks to the frames only with the gateway origin and follows the detected brand', async () => {
    const onChangeBrand = vi.fn();
    const onDetectBrand = vi.fn();
    boot({ onChangeBrand, onDetectBrand, iframeStyles: { 'card-number-placeholder': { color: 'gray' } } });
    await ready();
    const n = frame('cardNumber');
    n.say(n.hello, 'https://evil.test');
    expect(n.received).toHaveLength(0);
    n.say(n.hello);
    const init = n.received.find((m) => m.t === 'init') as Extract<HostMessage, { t: 'init' }>;
    expect(init.brands).toEqual(['VISA', 'MASTER', 'AMEX']);
    expect(init.style.placeholder).toEqual({ color: 'gray' });
    n.say({
      t: 'state',
      empty: false,
      valid: false,
      brand: 'MASTER',
      brands: ['MASTER'],
      length: 4,
      last4: null,
    });
    await vi.waitFor(() => expect(onChangeBrand).toHaveBeenCalledWith('MASTER'));
    expect(onDetectBrand).toHaveBeenCalledWith(['MASTER'], 'MASTER');
    expect($('.wpwl-brand-card')!.classList.contains('wpwl-brand-MASTER')).toBe(true);
    expect(n.received).toContainEqual({ ns: NS, t: 'brand', brand: 'MASTER' });
  });

  it('ignores a frame whose address the page changed to another checkout: no init, no state, no submit', async () => {
    const h = boot();
    await ready();
    const { n } = await fillCard();
    const before = n.received.length;
    // The page points the frame at another checkout (a new document): it says so when ready.
    n.say({ ...n.hello, checkout: 'EVIL.local01' });
    n.say({
      t: 'state',
      empty: false,
      valid: true,
      brand: 'VISA',
      brands: ['VISA'],
      length: 16,
      last4: '1111',
    });
    submit();
    // The number counts as not entered: flagged, nothing sent to any frame.
    await vi.waitFor(() => expect(n.iframe.classList.contains('wpwl-has-error')).toBe(true));
    expect(n.received.slice(before)).toEqual([]);
    expect(h.navigate).not.toHaveBeenCalled();
    // Its own frame again: init, and the form works.
    n.say(n.hello);
    expect(n.received.slice(before).map((m) => m.t)).toContain('init');
  });

  it('shows field errors with wpwl-has-error, wpwl-hint and aria-invalid, and does not submit', async () => {
    boot();
    await ready();
    const n = frame('cardNumber');
    n.say(n.hello);
    submit();
    await vi.waitFor(() => expect($$('.wpwl-hint').length).toBeGreaterThan(0));
    expect($('iframe.wpwl-control-cardNumber')!.classList.contains('wpwl-has-error')).toBe(true);
    const holder = $<HTMLInputElement>('.wpwl-control-cardHolder')!;
    expect(holder.classList.contains('wpwl-has-error')).toBe(true);
    expect(holder.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(holder.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Invalid card holder',
    );
    expect(n.received.some((m) => m.t === 'submit')).toBe(false);
    expect(n.received).toContainEqual({ ns: NS, t: 'invalid', message: 'Invalid card number or brand' });
  });

  it('stops when onBeforeSubmitCard returns false', async () => {
    const onBeforeSubmitCard = vi.fn(() => false);
    boot({ onBeforeSubmitCard });
    await ready();
    const { n } = await fillCard();
    submit();
    await vi.waitFor(() => expect(onBeforeSubmitCard).toHaveBeenCalled());
    expect(n.received.some((m) => m.t === 'submit')).toBe(false);
  });

  it('hands the number frame the form, with the inputs the page injected, and goes to the result page', async () => {
    const h = boot({
      onReady: () => {
        // What merchants do: a createRegistration checkbox before the pay button.
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.name = 'createRegistration';
        box.value = 'true';
        box.checked = true;
        const extra = document.createElement('input');
        extra.type = 'hidden';
        extra.name = 'customParameters[SHOPPER_orderId]';
        extra.value = '42';
        $('.wpwl-form-card .wpwl-button')!.before(box, extra);
      },
    });
    await ready();
    const { n } = await fillCard();
    submit();
    await vi.waitFor(() => expect(n.received.some((m) => m.t === 'submit')).toBe(true));
    const sent = n.received.find((m) => m.t === 'submit') as Extract<HostMessage, { t: 'submit' }>;
    // The frame posts to the checkout it is bound to; the message names no path or address.
    expect(sent).toMatchObject({ checkout: CHECKOUT_ID, kind: 'payment' });
    expect(sent).not.toHaveProperty('path');
    expect(sent.collect).toEqual(['cvv']);
    const { own, added } = split(sent.fields);
    expect(own).toEqual({
      paymentBrand: 'VISA',
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      createRegistration: 'true',
      'customParameters[SHOPPER_orderId]': '42',
    });
    // From this (the host) window, for 3-D Secure v2; the result address from the form's action.
    expect(added).toEqual({
      // What the browser accepts for a document and its own user agent, never the frame fetch's headers.
      'customer.browser.acceptHeader': 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'customer.browser.userAgent': navigator.userAgent,
      'customer.browser.language': navigator.language.slice(0, 8),
      'customer.browser.screenHeight': String(screen.height),
      'customer.browser.screenWidth': String(screen.width),
      'customer.browser.screenColorDepth': String(screen.colorDepth),
      'customer.browser.timezone': String(new Date().getTimezoneOffset()),
      'customer.browser.javaEnabled': 'false',
      // The size the challenge will open in (3 on a wide window).
      'customer.browser.challengeWindow': '3',
      shopperResultUrl: 'https://shop.test/return',
    });
    // The spinner while the payment runs; the injected inputs stay before the button.
    await vi.waitFor(() => expect($('.wpwl-button-pay .wpwl-spinner')).not.toBeNull());
    expect($('.wpwl-button-pay')!.getAttribute('aria-busy')).toBe('true');
    expect($('.wpwl-group-submit input[name="createRegistration"] + input + .wpwl-button')).not.toBeNull();
    n.say({ t: 'result', id: sent.id, status: 200, body: { id: 'p1', result: { code: '000.100.110' } } });
    await vi.waitFor(() => expect(h.navigate).toHaveBeenCalled());
    const url = new URL(h.navigate.mock.calls[0]![0] as string);
    expect(url.origin + url.pathname).toBe('https://shop.test/return');
    expect(url.searchParams.get('id')).toBe(CHECKOUT_ID);
    expect(url.searchParams.get('resourcePath')).toBe(`/v1/checkouts/${CHECKOUT_ID}/payment`);
  });

  it('after a decline stays on the form with a clear message, the checkout open for another try', async () => {
    let reads = 0;
    const h = boot({}, () => {
      reads++;
      return json(openSession());
    });
    await ready();
    const { n } = await fillCard();
    submit();
    await vi.waitFor(() => expect(n.received.some((m) => m.t === 'submit')).toBe(true));
    const sent = n.received.find((m) => m.t === 'submit') as Extract<HostMessage, { t: 'submit' }>;
    n.say({
      t: 'result',
      id: sent.id,
      status: 400,
      body: { result: { code: '800.100.151', description: 'x' } },
    });
    await vi.waitFor(() => expect($('.wpwl-form-card .wpwl-message')!.textContent).toMatch(/declined/));
    expect(reads).toBe(2);
    expect(h.navigate).not.toHaveBeenCalled();
    expect($<HTMLButtonElement>('.wpwl-button-pay')!.disabled).toBe(false);
  });

  it('says so when the checkout expired meanwhile', async () => {
    let reads = 0;
    boot({}, () => json(openSession(++reads > 1 ? { state: 'expired' } : {})));
    await ready();
    const { n } = await fillCard();
    submit();
    await vi.waitFor(() => expect(n.received.some((m) => m.t === 'submit')).toBe(true));
    const sent = n.received.find((m) => m.t === 'submit') as Extract<HostMessage, { t: 'submit' }>;
    n.say({ t: 'result', id: sent.id, status: 400, body: { result: { code: '200.300.404' } } });
    await vi.waitFor(() => expect($('.wpwl-widget > .wpwl-message')!.textContent).toMatch(/expired/));
    expect($<HTMLButtonElement>('.wpwl-button-pay')!.disabled).toBe(true);
  });

  it('maps parameterErrors to fields', async () => {
    boot();
    await ready();
    const { n } = await fillCard();
    submit();
    await vi.waitFor(() => expect(n.received.some((m) => m.t === 'submit')).toBe(true));
    const sent = n.received.find((m) => m.t === 'submit') as Extract<HostMessage, { t: 'submit' }>;
    n.say({
      t: 'result',
      id: sent.id,
      status: 400,
      body: { result: { code: '200.300.404', parameterErrors: [{ name: 'card.holder', message: 'bad' }] } },
    });
    await vi.waitFor(() =>
      expect($('.wpwl-control-cardHolder')!.classList.contains('wpwl-has-error')).toBe(true),
    );
  });

  it('reports PciIframeSubmitError when the frame cannot send', async () => {
    const h = boot();
    await ready();
    const { n } = await fillCard();
    submit();
    await vi.waitFor(() => expect(n.received.some((m) => m.t === 'submit')).toBe(true));
    const sent = n.received.find((m) => m.t === 'submit') as Extract<HostMessage, { t: 'submit' }>;
    n.say({ t: 'failed', id: sent.id, reason: 'network' });
    await vi.waitFor(() => expect(h.errors.map((e) => e.name)).toContain('PciIframeSubmitError'));
  });
});

describe('other methods', () => {
  it('SEPA direct debit checks the IBAN and posts holder, IBAN, country and bank code', async () => {
    document.body.innerHTML =
      '<form action="/done" class="paymentWidgets" data-brands="DIRECTDEBIT_SEPA"></form>';
    const posts: string[] = [];
    const h = boot({}, (_url, init) => {
      if (init?.method === 'POST') {
        posts.push(String(init.body));
        return json({ id: 'p', result: { code: '000.100.110' } });
      }
      return json(openSession());
    });
    await ready();
    typeInto($<HTMLInputElement>('.wpwl-control-accountHolder')!, 'Jane Jones');
    typeInto($<HTMLInputElement>('.wpwl-control-iban')!, 'de23100000001234567891');
    $<HTMLButtonElement>('.wpwl-form-directDebit .wpwl-button-pay')!.click();
    await vi.waitFor(() => expect($('.wpwl-control-iban')!.classList.contains('wpwl-has-error')).toBe(true));
    expect(posts).toHaveLength(0);
    typeInto($<HTMLInputElement>('.wpwl-control-iban')!, 'de23100000001234567890');
    expect($<HTMLInputElement>('.wpwl-control-iban')!.value).toBe('DE23 1000 0000 1234 5678 90');
    $<HTMLButtonElement>('.wpwl-form-directDebit .wpwl-button-pay')!.click();
    await vi.waitFor(() => expect(h.navigate).toHaveBeenCalled());
    const { own, added } = split([...new URLSearchParams(posts[0])]);
    expect(added.shopperResultUrl).toBe(new URL('/done', document.baseURI).href);
    expect(added['customer.browser.timezone']).toBe(String(new Date().getTimezoneOffset()));
    expect(own).toEqual({
      paymentBrand: 'DIRECTDEBIT_SEPA',
      'bankAccount.holder': 'Jane Jones',
      'bankAccount.iban': 'DE23100000001234567890',
      'bankAccount.country': 'DE',
      'bankAccount.bankCode': '10000000',
    });
    const url = h.fetch.mock.calls.find((c) => (c[1] as RequestInit | undefined)?.method === 'POST')![0];
    expect(url).toBe(`${GW}/v1/checkouts/${CHECKOUT_ID}/payment`);
  });

  it('renders virtual account, gift card and redirect brands', async () => {
    document.body.innerHTML =
      '<form class="paymentWidgets" data-brands="VIRTUAL_ACCOUNT GIFTCARD PAYPAL WALLETD_CONTINUE"></form>';
    boot();
    await ready();
    expect(
      $('.wpwl-form-virtualAccount-VIRTUAL_ACCOUNT input[name="virtualAccount.accountId"]'),
    ).not.toBeNull();
    expect($('.wpwl-form-giftCard input[name="giftCard.number"]')).not.toBeNull();
    expect($('.wpwl-form-giftCard input[name="giftCard.pin"][type="password"]')).not.toBeNull();
    expect($('.wpwl-form-onlineTransfer-PAYPAL .wpwl-button.wpwl-brand-PAYPAL')!.textContent).toBe(
      'Pay with PayPal',
    );
    expect($('.wpwl-form-onlineTransfer-WALLETD_CONTINUE .wpwl-button')!.textContent).toBe(
      'Pay with Wallet D',
    );
    expect($('.wpwl-form-onlineTransfer-WALLETD_CONTINUE')).not.toBeNull();
  });

  it('a redirect brand posts the brand and follows redirect.url', async () => {
    document.body.innerHTML = '<form class="paymentWidgets" data-brands="PAYPAL"></form>';
    const h = boot({}, (_url, init) =>
      init?.method === 'POST'
        ? json({
            result: { code: '000.200.000' },
            redirect: { url: 'https://psp.test/go', method: 'GET', parameters: [] },
          })
        : json(openSession()),
    );
    await ready();
    $<HTMLButtonElement>('.wpwl-button-brand')!.click();
    await vi.waitFor(() => expect(h.navigate).toHaveBeenCalledWith('https://psp.test/go', '_self'));
  });

  it('one-click: stored registrations, CVV frame when required, posting registrationId', async () => {
    const registrations = [
      {
        id: '8a82944a4cc25ebf014cc2c782423202',
        paymentBrand: 'VISA',
        card: {
          bin: '420000',
          last4Digits: '0000',
          holder: 'Jane Jones',
          expiryMonth: '05',
          expiryYear: '2034',
        },
      },
    ];
    boot({ registrations: { requireCvv: true, hideInitialPaymentForms: true } }, () =>
      json(openSession({ registrations })),
    );
    await ready();
    expect($('.wpwl-form-registrations .wpwl-registration')!.textContent).toContain('•••• 0000');
    expect($('.wpwl-methods')!.hidden).toBe(true);
    const cvv = frame('cvv', $('.wpwl-form-registrations')!);
    expect($('.wpwl-wrapper-registration-cvv iframe.wpwl-control-cvv')).not.toBeNull();
    cvv.say(cvv.hello);
    expect(cvv.received).toContainEqual({ ns: NS, t: 'brand', brand: 'VISA' });
    cvv.say({ t: 'state', empty: false, valid: true, brand: null, brands: [], length: 3, last4: null });
    $<HTMLButtonElement>('.wpwl-form-registrations .wpwl-button-pay')!.click();
    await vi.waitFor(() => expect(cvv.received.some((m) => m.t === 'submit')).toBe(true));
    const sent = cvv.received.find((m) => m.t === 'submit') as Extract<HostMessage, { t: 'submit' }>;
    expect(split(sent.fields).own).toEqual({ registrationId: registrations[0]!.id });
    expect(split(sent.fields).added.shopperResultUrl).toBe('https://shop.test/return');
    expect(split(sent.fields).added['customer.browser.javaEnabled']).toBe('false');
    $<HTMLButtonElement>('.wpwl-button-showOtherPaymentMethods')!.click();
    await vi.waitFor(() => expect($('.wpwl-methods')!.hidden).toBe(false));
  });

  it('fast checkout: createCheckout makes the checkout on the first click', async () => {
    document.body.innerHTML = '<form class="paymentWidgets" data-brands="PAYPAL"></form>';
    const createCheckout = vi.fn(async () => 'FAST123.local01');
    const h = boot(
      { createCheckout },
      (_url, init) =>
        init?.method === 'POST'
          ? json({ result: { code: '000.100.110' } })
          : json(openSession({ id: 'FAST123.local01' })),
      `${GW}/v1/paymentWidgets.js`,
    );
    await ready();
    expect(h.fetch).not.toHaveBeenCalled();
    $<HTMLButtonElement>('.wpwl-button-brand')!.click();
    await vi.waitFor(() => expect(h.navigate).toHaveBeenCalled());
    expect(createCheckout).toHaveBeenCalledWith({ brand: 'PAYPAL' });
    expect(h.api.checkout.id).toBe('FAST123.local01');
  });

  it('fast checkout offers no card form: card frames are bound to a checkout when created', async () => {
    document.body.innerHTML = '<form class="paymentWidgets" data-brands="VISA MASTER PAYPAL"></form>';
    const h = boot(
      { createCheckout: vi.fn(async () => 'FAST123.local01') },
      () => json(openSession()),
      `${GW}/v1/paymentWidgets.js`,
    );
    await ready();
    expect($('.wpwl-form-card')).toBeNull();
    expect($$('iframe')).toHaveLength(0);
    expect($('.wpwl-button-brand')).not.toBeNull();
    expect(h.errors.map((e) => e.name)).toEqual(['WidgetError']);
  });
});

describe('3-D Secure challenges and redirect flows', () => {
  const CHALLENGE = {
    url: `${GW}/v1/simulator/challenge`,
    parameters: [
      { name: 'id', value: 'p1' },
      { name: 'token', value: 't0k3n' },
    ],
  };
  const COMPLETE = { source: 'wpwl-gateway', type: 'async-complete' };

  /** Forms the widget submits (happy-dom would otherwise navigate). */
  function captureForms() {
    const posted: HTMLFormElement[] = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      posted.push(this);
    });
    return posted;
  }
  const fieldsOf = (form: HTMLFormElement) =>
    Array.from(form.querySelectorAll('input')).map((i) => [i.name, i.value]);

  /** Sessions: the first read as booted, every later one `after`. */
  function sessions(after: object, posts: string[] = []) {
    let reads = 0;
    const responses = (_url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        posts.push(String(init.body));
        return json({ result: { code: '000.200.000' }, redirect: CHALLENGE });
      }
      return json(openSession(++reads > 1 ? after : {}));
    };
    return { responses, reads: () => reads };
  }

  /** A card submission answered with a challenge. */
  async function challenged() {
    const { n } = await fillCard();
    submit();
    await vi.waitFor(() => expect(n.received.some((m) => m.t === 'submit')).toBe(true));
    const sent = n.received.find((m) => m.t === 'submit') as Extract<HostMessage, { t: 'submit' }>;
    n.say({
      t: 'result',
      id: sent.id,
      status: 200,
      body: { id: 'p1', result: { code: '000.200.000' }, redirect: CHALLENGE },
    });
    return sent;
  }

  /** The modal's iframe, with a stand-in window the test speaks for. */
  function target() {
    const iframe = $<HTMLIFrameElement>('.wpwl-modal iframe.wpwl-target')!;
    const w = {
      get location(): Location {
        throw new DOMException('cross-origin', 'SecurityError');
      },
    };
    Object.defineProperty(iframe, 'contentWindow', { value: w, configurable: true });
    const say = (data: unknown, origin = GW, source: unknown = w) =>
      window.dispatchEvent(new MessageEvent('message', { data, origin, source: source as Window }));
    return { iframe, say };
  }

  it('shows a card challenge in an accessible modal and posts the parameters with returnMode into its iframe', async () => {
    const posted = captureForms();
    const onLoadThreeDIframe = vi.fn();
    const s = sessions({ state: 'completed', lastResult: { code: '000.100.110', description: 'ok' } });
    const h = boot({ onLoadThreeDIframe }, s.responses);
    await ready();
    await challenged();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    const dialog = $('.wpwl-widget .wpwl-modal > .wpwl-modal-dialog')!;
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent).toBe(
      'Pay with Visa',
    );
    expect(document.activeElement).toBe(dialog);
    expect($('.wpwl-modal-close')!.getAttribute('aria-label')).toBe('Close');
    const { iframe, say } = target();
    expect(iframe.name).toMatch(/^wpwl-target-\d+$/);
    expect(iframe.getAttribute('title')).toBe('Pay with Visa');
    // Wide window, no option: EMV size 3.
    expect([iframe.getAttribute('width'), iframe.getAttribute('height')]).toEqual(['500', '600']);
    const form = posted[0]!;
    expect(form.getAttribute('action')).toBe(`${GW}/v1/simulator/challenge`);
    expect(form.method).toBe('post');
    expect(form.target).toBe(iframe.name);
    expect(dialog.contains(form)).toBe(true);
    expect(fieldsOf(form)).toEqual([
      ['id', 'p1'],
      ['token', 't0k3n'],
      ['returnMode', 'message'],
    ]);
    expect($$('form form')).toHaveLength(0);
    // The pay button waits while the challenge runs.
    expect($<HTMLButtonElement>('.wpwl-form-card .wpwl-button-pay')!.disabled).toBe(true);

    iframe.dispatchEvent(new Event('load'));
    expect(onLoadThreeDIframe).toHaveBeenCalledTimes(1);

    // Only the gateway's origin, only from the modal's own window, only the completion message.
    say(COMPLETE, 'https://evil.test');
    say(COMPLETE, GW, window);
    say({ source: 'wpwl-gateway', type: 'other' });
    await new Promise((r) => setTimeout(r, 20));
    expect($('.wpwl-modal')).not.toBeNull();
    expect(s.reads()).toBe(1);

    say(COMPLETE);
    await vi.waitFor(() => expect(h.navigate).toHaveBeenCalled());
    expect($('.wpwl-modal')).toBeNull();
    expect(s.reads()).toBe(2);
    const url = new URL(h.navigate.mock.calls[0]![0] as string);
    expect(url.origin + url.pathname).toBe('https://shop.test/return');
    expect(url.searchParams.get('id')).toBe(CHECKOUT_ID);
    expect(url.searchParams.get('resourcePath')).toBe(`/v1/checkouts/${CHECKOUT_ID}/payment`);
  });

  it('after a failed challenge shows the decline with the gateway’s reason and keeps the forms usable', async () => {
    captureForms();
    const s = sessions({
      state: 'open',
      lastResult: { code: '100.390.112', description: '3-D Secure authentication failed' },
    });
    const h = boot({}, s.responses);
    await ready();
    await challenged();
    await vi.waitFor(() => expect($('.wpwl-modal')).not.toBeNull());
    target().say(COMPLETE);
    await vi.waitFor(() =>
      expect($('.wpwl-form-card .wpwl-message')!.textContent).toBe(
        'The payment was declined. Please check your details or use another payment method.\n3-D Secure authentication failed',
      ),
    );
    expect($('.wpwl-modal')).toBeNull();
    expect(h.navigate).not.toHaveBeenCalled();
    await vi.waitFor(() =>
      expect($<HTMLButtonElement>('.wpwl-form-card .wpwl-button-pay')!.disabled).toBe(false),
    );
    expect($('.wpwl-widget > .wpwl-message')!.textContent).toBe('');
  });

  it('closes as today when the checkout expired meanwhile', async () => {
    captureForms();
    const h = boot({}, sessions({ state: 'expired' }).responses);
    await ready();
    await challenged();
    await vi.waitFor(() => expect($('.wpwl-modal')).not.toBeNull());
    target().say(COMPLETE);
    await vi.waitFor(() => expect($('.wpwl-widget > .wpwl-message')!.textContent).toMatch(/expired/));
    expect(h.navigate).not.toHaveBeenCalled();
    expect($<HTMLButtonElement>('.wpwl-form-card .wpwl-button-pay')!.disabled).toBe(true);
  });

  for (const how of ['close button', 'Escape'] as const) {
    it(`the ${how} ends the flow: a message, onLightboxCancel, the forms usable again`, async () => {
      captureForms();
      const onLightboxCancel = vi.fn();
      const s = sessions({});
      const h = boot({ onLightboxCancel }, s.responses);
      await ready();
      await challenged();
      await vi.waitFor(() => expect($('.wpwl-modal')).not.toBeNull());
      if (how === 'Escape') {
        $('.wpwl-modal-dialog')!.dispatchEvent(
          new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }),
        );
      } else {
        $<HTMLButtonElement>('.wpwl-modal-close')!.click();
      }
      await vi.waitFor(() => expect($('.wpwl-modal')).toBeNull());
      await vi.waitFor(() =>
        expect($('.wpwl-form-card .wpwl-message')!.textContent).toBe(
          'The payment was cancelled. You can choose another payment method.',
        ),
      );
      expect(onLightboxCancel).toHaveBeenCalledTimes(1);
      await vi.waitFor(() =>
        expect($<HTMLButtonElement>('.wpwl-form-card .wpwl-button-pay')!.disabled).toBe(false),
      );
      expect(h.navigate).not.toHaveBeenCalled();
      // No session read and no cancel call: the next submission cancels the pending payment.
      expect(s.reads()).toBe(1);
      expect(
        h.fetch.mock.calls.filter((c) => (c[1] as RequestInit | undefined)?.method === 'POST'),
      ).toHaveLength(0);
    });
  }

  it('with paymentTarget, a card challenge leaves in that target without returnMode', async () => {
    const posted = captureForms();
    boot({ paymentTarget: '_top' });
    await ready();
    await challenged();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect($('.wpwl-modal')).toBeNull();
    const form = posted[0]!;
    expect(form.parentElement).toBe(document.body);
    expect(form.getAttribute('action')).toBe(`${GW}/v1/simulator/challenge`);
    expect(form.method).toBe('post');
    expect(form.target).toBe('_top');
    expect(fieldsOf(form)).toEqual([
      ['id', 'p1'],
      ['token', 't0k3n'],
    ]);
  });

  it('a redirect brand leaves as the whole page by default, POSTing the parameters without returnMode', async () => {
    document.body.innerHTML = '<form class="paymentWidgets" data-brands="SOFORTUEBERWEISUNG"></form>';
    const posted = captureForms();
    const posts: string[] = [];
    boot({}, sessions({}, posts).responses);
    await ready();
    $<HTMLButtonElement>('.wpwl-form-onlineTransfer-SOFORTUEBERWEISUNG .wpwl-button-pay')!.click();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect($('.wpwl-modal')).toBeNull();
    expect(posted[0]!.hasAttribute('target')).toBe(false);
    expect(fieldsOf(posted[0]!)).toEqual([
      ['id', 'p1'],
      ['token', 't0k3n'],
    ]);
    // The page's form has no action: no shopperResultUrl; browser data all the same.
    const sent = Object.fromEntries(new URLSearchParams(posts[0]));
    expect(sent.paymentBrand).toBe('SOFORTUEBERWEISUNG');
    expect(sent.shopperResultUrl).toBeUndefined();
    expect(sent['customer.browser.javaEnabled']).toBe('false');
  });

  it('a redirect brand in inlineFlow opens in the modal, and a success leaves to the result page', async () => {
    document.body.innerHTML =
      '<form action="https://shop.test/done" class="paymentWidgets" data-brands="PAYPAL KLARNA_PAYMENTS_PAYLATER"></form>';
    const posted = captureForms();
    const h = boot(
      { inlineFlow: 'KLARNA_PAYMENTS_PAYLATER' },
      sessions({ state: 'completed', lastResult: { code: '000.100.110' }, shopperResultUrl: undefined })
        .responses,
    );
    await ready();
    $<HTMLButtonElement>('.wpwl-form-onlineTransfer-KLARNA_PAYMENTS_PAYLATER .wpwl-button-pay')!.click();
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    const { iframe, say } = target();
    expect(posted[0]!.target).toBe(iframe.name);
    expect(fieldsOf(posted[0]!)).toContainEqual(['returnMode', 'message']);
    expect(
      document.getElementById($('.wpwl-modal-dialog')!.getAttribute('aria-labelledby')!)!.textContent,
    ).toBe('Pay with Klarna Pay Later');
    say(COMPLETE);
    await vi.waitFor(() => expect(h.navigate).toHaveBeenCalled());
    expect(h.navigate.mock.calls[0]![0]).toMatch(/^https:\/\/shop\.test\/done\?id=/);
  });

  it.each([
    [1, '250', '400'],
    [2, '390', '400'],
    [3, '500', '600'],
    [4, '600', '400'],
    ['5', '100%', '100%'],
  ])('browser.threeDChallengeWindow %s sizes the iframe %s × %s and is sent', async (size, width, height) => {
    captureForms();
    const h = boot({ browser: { threeDChallengeWindow: size } }, sessions({}).responses);
    await ready();
    const sent = await challenged();
    await vi.waitFor(() => expect($('.wpwl-modal')).not.toBeNull());
    const iframe = $<HTMLIFrameElement>('iframe.wpwl-target')!;
    expect([iframe.getAttribute('width'), iframe.getAttribute('height')]).toEqual([width, height]);
    expect($('.wpwl-modal-dialog')!.classList.contains(`wpwl-modal-size-${size}`)).toBe(true);
    expect(Object.fromEntries(sent.fields)['customer.browser.challengeWindow']).toBe(String(size));
    expect(h.errors).toHaveLength(0);
  });

  it('a narrow window gets the full-window size unless the page chose one', async () => {
    captureForms();
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(360);
    boot({}, sessions({}).responses);
    await ready();
    const sent = await challenged();
    await vi.waitFor(() => expect($('.wpwl-modal')).not.toBeNull());
    expect($('.wpwl-modal-dialog')!.classList.contains('wpwl-modal-size-5')).toBe(true);
    expect($('iframe.wpwl-target')!.getAttribute('width')).toBe('100%');
    // The size it opens in is the size the gateway is told.
    expect(Object.fromEntries(sent.fields)['customer.browser.challengeWindow']).toBe('5');
  });
});
