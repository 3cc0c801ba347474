/**
 * What paymentWidgets.js does before anything else (issue 21): the session read and the card
 * frames, started by the first statements the bundle runs (`./first.ts`, the entry's first import),
 * before Preact, the signals, the components and the page's wpwlOptions are evaluated. Boot
 * (`start`) takes them over: its session read is this one, its frame bus this bus.
 *
 * Only what is certain from the script's URL and the page: the checkout id (valid, else boot reports
 * it), the page's origin, and whether a form wants cards (`wantsCardFrames` in boot).
 */
import { isCardBrand } from '../../shared/brands';
import { CHECKOUT_ID, readSession, type SessionRead } from './api';
import { parseBrands } from './brands';
import { FrameBus } from './frame-bus';

export interface OwnScript {
  readonly src: string;
  readonly nonce?: string;
}

/** What was started for one script element; `start` uses it only when its `script` is that element. */
export interface EarlyStart {
  readonly script: OwnScript;
  /** The session read of the URL's checkout, under way (a valid checkoutId only). */
  readonly sessionRead: Promise<SessionRead> | undefined;
  /** The frame bus, its card frames started when a form may want them. */
  readonly bus: FrameBus;
}

/** The script element running now, or the last paymentWidgets.js script on the page. */
export function ownScript(doc: Document): OwnScript | undefined {
  const current = doc.currentScript as HTMLScriptElement | null;
  const scripts = Array.from(doc.querySelectorAll<HTMLScriptElement>('script[src*="paymentWidgets.js"]'));
  const el = current?.src ? current : scripts[scripts.length - 1];
  if (!el) return undefined;
  const nonce = el.nonce || el.getAttribute('nonce') || undefined;
  return nonce === undefined ? { src: el.src } : { src: el.src, nonce };
}

/** The card form's frames are wanted unless every form on the page so far lists only other brands. */
export function formsWantCards(doc: Document): boolean {
  const forms = Array.from(doc.querySelectorAll('form.paymentWidgets'));
  return forms.length === 0 || forms.some((form) => parseBrands(form).some(isCardBrand));
}

/** Starts the session read and the card frames for the running script; undefined without one. */
export function earlyStart(win: Window): EarlyStart | undefined {
  const doc = win.document;
  const script = ownScript(doc);
  if (script === undefined) return undefined;
  const scriptUrl = new URL(script.src, doc.baseURI);
  const apiBase = new URL('./', scriptUrl).href;
  const bus = new FrameBus(win, scriptUrl.origin, apiBase);
  const id = scriptUrl.searchParams.get('checkoutId')?.trim() || undefined;
  if (id === undefined || !CHECKOUT_ID.test(id)) return { script, sessionRead: undefined, bus };
  // The session read first: sending it takes well under a millisecond, while creating the first
  // frame takes the main thread 10–20 ms (Chromium makes its child frame), which the read would
  // otherwise wait for. The frames' longer path (a cross-site renderer process to start) runs
  // meanwhile in the browser, whose request for their document follows the read's by no more.
  const sessionRead = readSession(apiBase, id, win.fetch.bind(win));
  if (formsWantCards(doc)) bus.prestart(doc, id, win.location.origin);
  return { script, sessionRead, bus };
}
