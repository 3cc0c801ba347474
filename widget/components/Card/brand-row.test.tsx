// @vitest-environment happy-dom
/**
 * The accepted card brands' row (`div.wpwl-brands`): one `div.wpwl-brand.wpwl-brand-<BRAND>` per card
 * brand the form takes, shown before the shopper types; once the number frame detects a brand, that
 * one is highlighted and the others dimmed.
 */
import '../../methods'; // the payment methods register themselves, as in the bundle's entry
import { beforeEach, expect, it, vi } from 'vitest';
import { keepFrameSources } from '../../../server/test-kit/widget-frames';
import { CHECKOUT_ID, GW, ready, startWidget, win } from '../../../server/test-kit/widget-page';
import { NS } from '../../frames/protocol';

function boot(brands: string, accepted?: readonly string[]) {
  document.body.innerHTML = `<form action="https://shop.test/return" class="paymentWidgets" data-brands="${brands}"></form>`;
  win().wpwlOptions = { onError: () => undefined };
  startWidget({
    id: CHECKOUT_ID,
    kind: 'payment',
    state: 'open',
    expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    amount: '92.00',
    currency: 'EUR',
    registrations: [],
    ...(accepted === undefined ? {} : { brands: accepted }),
  });
}

const $$ = (sel: string) => [...document.querySelectorAll<HTMLElement>(sel)];

/** The number frame's state message (frames never load here; the test plays them). */
function frameSays(state: object) {
  const iframe = document.querySelector<HTMLIFrameElement>('iframe.wpwl-control-cardNumber')!;
  const w = { postMessage: () => undefined };
  Object.defineProperty(iframe, 'contentWindow', { value: w, configurable: true });
  const hash = new URLSearchParams(iframe.dataset.testSrc!.split('#')[1]);
  const say = (m: object) =>
    window.dispatchEvent(
      new MessageEvent('message', { data: { ns: NS, ...m }, origin: GW, source: w as never }),
    );
  say({ t: 'ready', checkout: hash.get('c'), group: hash.get('g') });
  say({ t: 'state', ...state });
}

const row = () => $$('.wpwl-form-card .wpwl-brands > .wpwl-brand');
const classesOf = (brand: string) =>
  row().find((b) => b.classList.contains(`wpwl-brand-${brand}`))!.classList;

keepFrameSources();
beforeEach(() => {
  win().wpwl?.unload();
  document.body.innerHTML = '';
});

it('shows the accepted card brands’ logos before typing, in the page’s order, named by the catalogue', async () => {
  boot('VISA MASTER AMEX PAYPAL MADA', ['VISA', 'MASTER', 'PAYPAL', 'MADA']);
  await ready();
  expect(row().map((b) => [...b.classList].find((c) => /^wpwl-brand-[A-Z]/.test(c)))).toEqual([
    'wpwl-brand-VISA',
    'wpwl-brand-MASTER',
    'wpwl-brand-MADA',
  ]);
  const logos = row().map((b) => b.querySelector<HTMLImageElement>('img.wpwl-logo')!);
  expect(logos.map((l) => l.alt)).toEqual(['Visa', 'Mastercard', 'mada']);
  expect(logos[0]!.getAttribute('src')).toBe(`${GW}/v1/widget/logos/VISA.svg`);
  expect(row().some((b) => b.classList.contains('wpwl-brand-dimmed'))).toBe(false);
});

it('highlights the detected brand and dims the others; emptied, all are shown again', async () => {
  boot('VISA MASTER MADA');
  await ready();
  frameSays({ empty: false, valid: false, brand: 'MASTER', brands: ['MASTER'], length: 4 });
  await vi.waitFor(() => expect(classesOf('MASTER').contains('wpwl-brand-detected')).toBe(true));
  expect(classesOf('VISA').contains('wpwl-brand-dimmed')).toBe(true);
  expect(classesOf('MADA').contains('wpwl-brand-dimmed')).toBe(true);
  expect(classesOf('MASTER').contains('wpwl-brand-dimmed')).toBe(false);
  frameSays({ empty: true, valid: false, brand: 'VISA', brands: [], length: 0 });
  await vi.waitFor(() => expect(classesOf('VISA').contains('wpwl-brand-dimmed')).toBe(false));
  expect(row().some((b) => b.classList.contains('wpwl-brand-detected'))).toBe(false);
});
