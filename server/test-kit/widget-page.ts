/**
 * The shop page of the widget's DOM tests (happy-dom): the gateway's address, the checkout the
 * page's script names, the session the widget fetches for it, and what a test reads of the page
 * (`win()`, `ready()`).
 */
import { expect, vi } from 'vitest';
import { start, type WpwlGlobal } from '../../widget/core/boot';

export const GW = 'https://gw.test';
export const CHECKOUT_ID = '8A82944A4CC25EBF014CC2C782423202.local01';
/** The script tag's address: paymentWidgets.js naming the checkout. */
export const WIDGET_SCRIPT = `${GW}/v1/paymentWidgets.js?checkoutId=${CHECKOUT_ID}`;
/** An expiry half an hour ahead: the checkout is still open. */
export const FUTURE = new Date(Date.now() + 30 * 60_000).toISOString();

type Win = Window & { wpwlOptions?: unknown; wpwl?: WpwlGlobal };
/** The window with what the shop sets (wpwlOptions) and what the widget exports (wpwl). */
export const win = () => window as unknown as Win;

/** Waits until the widget says it is ready. */
export const ready = () => vi.waitFor(() => expect(win().wpwl?.isReady).toBe(true));

/** A JSON answer of the gateway. */
export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The open payment checkout's session as the gateway answers it; `fields` say how a test's differs. */
export const openSession = (fields: object = {}) => ({
  id: CHECKOUT_ID,
  kind: 'payment',
  state: 'open',
  expiresAt: FUTURE,
  amount: '92.00',
  currency: 'EUR',
  paymentType: 'DB',
  shopperResultUrl: 'https://shop.test/result',
  registrations: [],
  ...fields,
});

/**
 * Starts the widget as the page's script tag does, its session read answered by `body`; the
 * fetch is returned so a test can count what the widget asked.
 */
export function startWidget(body: unknown) {
  const fetch = vi.fn(async () => json(body));
  start({
    win: window,
    script: { src: WIDGET_SCRIPT },
    fetch: fetch as unknown as typeof globalThis.fetch,
    navigate: vi.fn(),
  });
  return fetch;
}
