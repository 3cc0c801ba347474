// @vitest-environment happy-dom
/**
 * Brand logos: the files the build serves, and where the widget shows them (the card form's
 * detected brand, stored cards, the buttons of redirect methods and wallets).
 */
import '../../../methods'; // the payment methods register themselves, as in the bundle's entry
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { keepFrameSources } from '../../../../server/test-kit/widget-frames';
import { CHECKOUT_ID, GW, ready, startWidget, win } from '../../../../server/test-kit/widget-page';
import { listBrands } from '../../../../shared/brands';
import { NS } from '../../../frames/protocol';
import { LOGOS } from './BrandLogo';

const DIR = join(import.meta.dirname, 'logos');
const files = () => readdirSync(DIR).filter((f) => f.endsWith('.svg'));

describe('logo files', () => {
  it('the list is the folder, and every card brand has a logo (others may show their name)', () => {
    expect([...LOGOS].sort()).toEqual(
      files()
        .map((f) => f.replace(/\.svg$/, ''))
        .sort(),
    );
    for (const brand of listBrands('card')) expect(LOGOS.has(brand), brand).toBe(true);
  });

  it.each(files())('%s is a small, self-contained SVG (no script, link or outside reference)', (file) => {
    const svg = readFileSync(join(DIR, file), 'utf8');
    expect(svg.length).toBeLessThan(1024);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 40 26"/);
    expect(svg).toMatch(/<title>[^<]+<\/title>/);
    expect(svg).not.toMatch(/<script|<foreignObject|<image|<use|<style|href|\son\w+=|\sstyle=|url\(/i);
  });
});

const session = (over: object = {}) => ({
  id: CHECKOUT_ID,
  kind: 'payment',
  state: 'open',
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  amount: '92.00',
  currency: 'EUR',
  registrations: [],
  ...over,
});

function boot(brands: string, body: object = session()) {
  document.body.innerHTML = `<form action="https://shop.test/return" class="paymentWidgets" data-brands="${brands}"></form>`;
  win().wpwlOptions = { onError: () => undefined };
  startWidget(body);
}

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);

/** The number frame says it detected `brand` (frames never load here; the test plays them). */
function detect(brand: string) {
  const iframe = $<HTMLIFrameElement>('iframe.wpwl-control-cardNumber')!;
  const w = { postMessage: () => undefined };
  Object.defineProperty(iframe, 'contentWindow', { value: w, configurable: true });
  const hash = new URLSearchParams(iframe.dataset.testSrc!.split('#')[1]);
  const say = (m: object) =>
    window.dispatchEvent(
      new MessageEvent('message', { data: { ns: NS, ...m }, origin: GW, source: w as never }),
    );
  say({ t: 'ready', checkout: hash.get('c'), group: hash.get('g') });
  say({ t: 'state', empty: false, valid: true, brand, brands: [brand], length: 16, last4: '0007' });
}

keepFrameSources();
beforeEach(() => {
  win().wpwl?.unload();
  document.body.innerHTML = '';
});

describe('where the widget shows logos', () => {
  it('the card form: the detected brand’s logo at the end of the number field, named for assistive technology', async () => {
    boot('VISA MASTER MADA');
    await ready();
    const badge = $('.wpwl-wrapper-cardNumber .wpwl-brand-card')!;
    expect(badge.children).toHaveLength(0);
    detect('MADA');
    await vi.waitFor(() => expect(badge.classList.contains('wpwl-brand-MADA')).toBe(true));
    const logo = badge.querySelector<HTMLImageElement>('img.wpwl-logo')!;
    expect(logo.getAttribute('src')).toBe(`${GW}/v1/widget/logos/MADA.svg`);
    expect(logo.alt).toBe('mada');
    expect(badge.hasAttribute('aria-hidden')).toBe(false);
  });

  it('redirect and wallet buttons: the logo beside the label, hidden from assistive technology', async () => {
    boot('PAYPAL WALLETA');
    await ready();
    for (const brand of ['PAYPAL', 'WALLETA']) {
      const button = $(`button.wpwl-brand-${brand}`)!;
      const logo = button.querySelector<HTMLImageElement>(`img.wpwl-logo-${brand}`)!;
      expect(logo.alt).toBe('');
      expect(logo.getAttribute('src')).toBe(`${GW}/v1/widget/logos/${brand}.svg`);
    }
    expect($('button.wpwl-brand-PAYPAL')!.textContent).toBe('Pay with PayPal');
  });

  it('stored cards: the brand’s logo names the registration', async () => {
    boot(
      'VISA',
      session({ registrations: [{ id: 'r1', paymentBrand: 'MASTER', card: { last4Digits: '0007' } }] }),
    );
    await ready();
    const logo = $<HTMLImageElement>('.wpwl-registration img.wpwl-logo-MASTER')!;
    expect(logo.alt).toBe('Mastercard');
  });
});
