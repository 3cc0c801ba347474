// @vitest-environment happy-dom
/**
 * The bundle's first statements (`early.ts`, issue 21): the card frames and the session read start
 * from the running script's own element, before boot; boot then takes both over (one session read,
 * the same frames in the card form) and reads wpwlOptions only then.
 */
import '../methods';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readFrameHash } from '../frames/protocol';
import { start, type WpwlGlobal } from './boot';
import { earlyStart } from './early';

const GW = 'https://gw.test';
const ID = '8A82944A4CC25EBF014CC2C782423202.local01';
type Win = Window & { wpwlOptions?: unknown; wpwl?: WpwlGlobal };
const win = () => window as unknown as Win;
const session = {
  id: ID,
  kind: 'payment',
  state: 'open',
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  amount: '92.00',
  currency: 'EUR',
  paymentType: 'DB',
  registrations: [],
};

const started = () => Array.from(document.querySelectorAll<HTMLIFrameElement>('[data-wpwl="frames"] iframe'));
const testSrc = (iframe: HTMLIFrameElement) => iframe.dataset.testSrc ?? '';

/** The page: the script element (with a nonce) before the form, as shops include it. */
function page(src: string, brands = 'VISA MASTER'): void {
  document.head.innerHTML = '';
  const script = document.createElement('script');
  script.setAttribute('src', src);
  script.setAttribute('nonce', 'n0nce');
  document.head.append(script);
  document.body.innerHTML = `<form action="https://shop.test/return" class="paymentWidgets" data-brands="${brands}"></form>`;
}

let fetchMock: ReturnType<typeof vi.fn>;
const srcDescriptor = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'src')!;
beforeAll(() => {
  Object.defineProperty(HTMLIFrameElement.prototype, 'src', {
    configurable: true,
    get: () => '',
    set(this: HTMLIFrameElement, value: string) {
      this.dataset.testSrc = value;
    },
  });
  Object.defineProperty(Element.prototype, 'moveBefore', {
    configurable: true,
    value(this: Element, node: Node, child: Node | null) {
      this.insertBefore(node, child);
    },
  });
});
afterAll(() => {
  Object.defineProperty(HTMLIFrameElement.prototype, 'src', srcDescriptor);
  delete (Element.prototype as { moveBefore?: unknown }).moveBefore;
});
beforeEach(() => {
  fetchMock = vi.fn(async (url: string) =>
    url.includes('/session')
      ? new Response(JSON.stringify(session), { headers: { 'Content-Type': 'application/json' } })
      : new Response('{}', { status: 404 }),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  win().wpwl?.unload();
  delete win().wpwlOptions;
  vi.unstubAllGlobals();
});

describe('the bundle’s first statements', () => {
  it('start the card frames, then the session read, from the script’s own URL, before boot', () => {
    page(`${GW}/v1/paymentWidgets.js?checkoutId=${ID}`);
    const early = earlyStart(window);
    expect(early?.script).toEqual({ src: `${GW}/v1/paymentWidgets.js?checkoutId=${ID}`, nonce: 'n0nce' });
    const frames = started();
    expect(frames.map((f) => readFrameHash(new URL(testSrc(f)).hash)?.field)).toEqual(['number', 'cvv']);
    expect(readFrameHash(new URL(testSrc(frames[0]!)).hash)).toMatchObject({
      checkout: ID,
      origin: window.location.origin,
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]![0])).toBe(`${GW}/v1/checkouts/${encodeURIComponent(ID)}/session`);
    expect(early?.sessionRead).toBeInstanceOf(Promise);
  });

  it('are taken over by boot: one session read, the same frames in the card form, onReady', async () => {
    page(`${GW}/v1/paymentWidgets.js?checkoutId=${ID}`);
    const early = earlyStart(window)!;
    const [number, cvv] = started();
    const calls: string[] = [];
    win().wpwlOptions = { onReady: () => calls.push('onReady') };
    start({ win: window, script: early.script, early });
    await vi.waitFor(() => expect(calls).toEqual(['onReady']));
    expect(document.querySelector('iframe.wpwl-control-cardNumber')).toBe(number);
    expect(document.querySelector('iframe.wpwl-control-cvv')).toBe(cvv);
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/session'))).toHaveLength(1);
    expect(win().wpwl?.checkout.amount).toBe('92.00');
  });

  it('start nothing for a malformed checkoutId or a page whose forms take no card', () => {
    page(`${GW}/v1/paymentWidgets.js?checkoutId=not%20an%20id`);
    expect(earlyStart(window)?.sessionRead).toBeUndefined();
    expect(started()).toEqual([]);
    expect(fetchMock).not.toHaveBeenCalled();
    page(`${GW}/v1/paymentWidgets.js?checkoutId=${ID}`, 'DIRECTDEBIT_SEPA');
    const early = earlyStart(window);
    expect(started()).toEqual([]);
    expect(early?.sessionRead).toBeInstanceOf(Promise);
    early?.bus.destroy();
  });
});
