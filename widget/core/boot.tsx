/**
 * Boot: read the script's own URL (gateway address and checkoutId), `window.wpwlOptions`, then
 * find every `form.paymentWidgets` once the DOM is there (at once when the script was appended
 * late) and render the widget before each, hiding the page's form. `window.wpwl` offers the
 * checkout and `unload()`; loading the script again after unload starts afresh.
 */
import { type Signal, signal } from '@preact/signals';
import { render } from 'preact';
import {
  bcp47,
  EN,
  formatAmount,
  isRtl,
  type Locale,
  loadStrings,
  mergeStrings,
  resolveLocale,
  type Strings,
} from '../language';
import { shownMoney } from './amount';
import { CHECKOUT_ID, readSession, resourcePath, type Session, type SessionRead } from './api';
import { parseBrands, planMethods } from './brands';
import {
  type CheckoutState,
  type Closed,
  Ctx,
  checkoutState,
  type ModalFlow,
  type WidgetContext,
} from './context';
import { type EarlyStart, formsWantCards } from './early';
import { invalidCheckoutId, type WpwlError, widgetError } from './errors';
import { FrameBus } from './frame-bus';
import { Message } from './Message';
import { callback, readSettings, type Settings } from './options';
import { partsFrom } from './parts';
import { registry } from './registry';
import { Widget } from './Widget';

export { ownScript } from './early';

export const VERSION = '1';

export interface CheckoutInfo {
  id?: string;
  amount?: string;
  currency?: string;
  resourcePath?: string;
  kind?: string;
  state?: string;
  expiresAt?: string;
}

/** `window.wpwl` */
export interface WpwlGlobal {
  readonly version: string;
  readonly checkout: CheckoutInfo;
  isReady: boolean;
  unload(): void;
}

type Page = Window & { wpwlOptions?: unknown; wpwl?: Partial<WpwlGlobal> };

export interface StartOptions {
  readonly win: Window;
  /** The widget script's `src` and `nonce`. */
  readonly script: { readonly src: string; readonly nonce?: string | undefined };
  readonly fetch?: typeof fetch;
  readonly now?: () => Date;
  /**
   * Where the shopper is sent (tests); by default the window navigates, or the target: `_top`,
   * `_parent`, another frame's name (given, else shopperResultTarget / paymentTarget).
   */
  readonly navigate?: (url: string, target?: string) => void;
  /**
   * The session read and frame bus the bundle started first (`./early.ts`), for this script: boot
   * takes them over instead of starting its own.
   */
  readonly early?: EarlyStart | undefined;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

interface Mounted {
  readonly root: HTMLElement;
  readonly form: HTMLFormElement;
  readonly hidden: HTMLElement['hidden'];
  readonly display: string;
}

/** What one start of the widget shares: the page, its options, the checkout, the mounted forms. */
interface Boot {
  readonly options: StartOptions;
  readonly win: Page;
  readonly doc: Document;
  readonly fetch: typeof fetch;
  readonly now: () => Date;
  readonly apiBase: string;
  readonly rawOptions: unknown;
  readonly settings: Settings;
  readonly locale: Locale;
  /** The checkoutId of the script's URL, if any. */
  readonly idParam: string | undefined;
  readonly checkout: CheckoutState;
  /** `wpwl.checkout`, kept up to date. */
  readonly info: CheckoutInfo;
  readonly mounted: Mounted[];
  readonly timers: ReturnType<typeof setTimeout>[];
  readonly bus: FrameBus;
  readonly announce: Signal<string>;
  unloaded: boolean;
  sequence: number;
  /** Fast checkout's createCheckout under way, shared by the clicks meanwhile. */
  creating: Promise<string | undefined> | undefined;
}

/** Reads the script's URL and the page's wpwlOptions (once); the previous start is unloaded. */
function setup(options: StartOptions): Boot {
  const win = options.win as Page;
  const previous = win.wpwl;
  if (previous && typeof previous.unload === 'function') previous.unload();
  const doc = win.document;
  const scriptUrl = new URL(options.script.src, doc.baseURI);
  const apiBase = new URL('./', scriptUrl).href;
  const rawOptions = win.wpwlOptions;
  const settings = readSettings(rawOptions);
  const idParam = scriptUrl.searchParams.get('checkoutId')?.trim() || undefined;
  return {
    options,
    win,
    doc,
    fetch: options.fetch ?? win.fetch.bind(win),
    now: options.now ?? (() => new Date()),
    apiBase,
    rawOptions,
    settings,
    locale: resolveLocale(settings.locale),
    idParam,
    checkout: checkoutState(idParam),
    info: {},
    mounted: [],
    timers: [],
    bus: options.early?.bus ?? new FrameBus(win, scriptUrl.origin, apiBase),
    announce: signal(''),
    unloaded: false,
    sequence: 0,
    creating: undefined,
  };
}

/** Tells the page's onError (else the console); nothing once unloaded. */
function report(b: Boot, error: WpwlError): void {
  if (b.unloaded) return;
  const handler = (b.rawOptions as { onError?: unknown } | undefined)?.onError;
  if (typeof handler === 'function') callback(b.rawOptions, 'onError', undefined, error);
  else console.warn(`paymentWidgets: ${error.name}: ${error.message}`);
}

/** `window.wpwl`: the checkout, isReady, and unload (the forms back as they were). */
function globalApi(b: Boot, link: HTMLLinkElement | undefined): WpwlGlobal {
  const api: WpwlGlobal = {
    version: VERSION,
    checkout: b.info,
    isReady: false,
    unload() {
      if (b.unloaded) return;
      b.unloaded = true;
      for (const t of b.timers) clearTimeout(t);
      for (const m of b.mounted) {
        render(null, m.root);
        m.root.remove();
        m.form.hidden = m.hidden;
        m.form.style.display = m.display;
      }
      b.mounted.length = 0;
      b.bus.destroy();
      link?.remove();
      api.isReady = false;
    },
  };
  return api;
}

function updateInfo(b: Boot): void {
  const { info, checkout, settings } = b;
  const id = checkout.id.peek();
  const session = checkout.session.peek();
  info.id = id;
  info.kind = session?.kind ?? 'payment';
  info.resourcePath = id ? resourcePath(id, session?.kind ?? 'payment') : undefined;
  const shown = shownMoney(settings, session);
  info.amount = shown.amount;
  info.currency = shown.currency;
  info.state = session?.state;
  info.expiresAt = session?.expiresAt;
}

function close(b: Boot, why: Closed): void {
  if (b.checkout.closed.peek() === why) return;
  b.checkout.closed.value = why;
  if (why === 'sessionExpired') report(b, invalidCheckoutId('The checkout has expired.'));
}

/** Takes a session read: unknown or closed checkouts close the widget; an open one is watched. */
function adopt(b: Boot, read: SessionRead | undefined): void {
  if (read === undefined) return;
  if (read.kind === 'notFound') {
    report(b, invalidCheckoutId('No checkout exists for this checkoutId.'));
    close(b, 'invalidCheckout');
  } else if (read.kind === 'error') {
    report(b, widgetError(`The checkout could not be read: ${read.message}`));
  } else {
    b.checkout.session.value = read.session;
    if (read.session.state === 'expired') close(b, 'sessionExpired');
    else if (read.session.state === 'completed') close(b, 'completed');
    else watchExpiry(b, read.session);
  }
  updateInfo(b);
}

function watchExpiry(b: Boot, session: Session): void {
  const at = session.expiresAt ? Date.parse(session.expiresAt) : Number.NaN;
  if (Number.isNaN(at)) return;
  const ms = at - b.now().getTime();
  if (ms <= 0) close(b, 'sessionExpired');
  else if (ms < MAX_TIMER_MS) b.timers.push(setTimeout(() => close(b, 'sessionExpired'), ms));
}

/**
 * Fast checkout: the page's createCheckout({brand}) (an id or a thenable of one) makes the
 * checkout on the first click, then its session is read (amount, currency) before anything else
 * happens. A failure (thrown, rejected, empty or malformed) reports an error and gives undefined:
 * the form says so and the next click asks again.
 */
async function create(b: Boot, brand: string): Promise<string | undefined> {
  const fn = b.settings.createCheckout;
  if (fn === undefined) {
    report(b, invalidCheckoutId('No checkoutId in the script URL and no createCheckout option.'));
    return undefined;
  }
  let created: unknown;
  try {
    created = await fn.call(undefined, { brand });
  } catch (error) {
    report(
      b,
      widgetError(`createCheckout failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    return undefined;
  }
  if (typeof created === 'string') created = created.trim();
  if (typeof created !== 'string' || !CHECKOUT_ID.test(created)) {
    report(b, invalidCheckoutId('createCheckout did not give a checkout id.'));
    return undefined;
  }
  if (b.unloaded) return undefined;
  b.checkout.id.value = created;
  adopt(b, await readSession(b.apiBase, created, b.fetch));
  return b.checkout.closed.peek() === null ? created : undefined;
}

/** The checkout id; in fast checkout created on the first click (clicks meanwhile share it). */
function ensureCheckout(b: Boot, brand: string): Promise<string | undefined> {
  const id = b.checkout.id.peek();
  if (id !== undefined) return Promise.resolve(id);
  b.creating ??= create(b, brand).finally(() => {
    b.creating = undefined;
  });
  return b.creating;
}

/** Sends the shopper to an address: `_top`, `_parent`, another frame's name, or this window. */
function navigate(b: Boot, url: string, target = b.settings.resultTarget): void {
  const { options, win } = b;
  if (options.navigate) {
    if (target === undefined) options.navigate(url);
    else options.navigate(url, target);
    return;
  }
  try {
    if (target === '_top' && win.top) win.top.location.href = url;
    else if (target === '_parent' && win.parent) win.parent.location.href = url;
    else if (target && target !== '_self' && target !== '_blank') win.open(url, target);
    else win.location.href = url;
  } catch {
    win.location.href = url;
  }
}

async function refresh(b: Boot): Promise<Session | undefined> {
  const id = b.checkout.id.peek();
  if (id === undefined) return undefined;
  const read = await readSession(b.apiBase, id, b.fetch);
  adopt(b, read);
  return read.kind === 'ok' ? read.session : undefined;
}

const contextFor = (b: Boot, form: HTMLFormElement, strings: Strings): WidgetContext => ({
  win: b.win,
  doc: b.doc,
  settings: b.settings,
  options: b.rawOptions,
  strings,
  locale: b.locale,
  apiBase: b.apiBase,
  pageOrigin: b.win.location.origin,
  bus: b.bus,
  checkout: b.checkout,
  action: form.getAttribute('action'),
  fetch: b.fetch,
  announce: b.announce,
  uid: (name) => `wpwl-${++b.sequence}-${name}`,
  now: b.now,
  report: (error) => report(b, error),
  navigate: (url, target) => (target === undefined ? navigate(b, url) : navigate(b, url, target)),
  ensureCheckout: (brand) => ensureCheckout(b, brand),
  close: (why) => close(b, why),
  refresh: () => refresh(b),
  modal: signal<ModalFlow | null>(null),
});

/** Renders the widget before a `form.paymentWidgets` (once) and hides the form. */
function mount(b: Boot, form: HTMLFormElement, strings: Strings): void {
  const { doc, settings, locale } = b;
  if (b.mounted.some((m) => m.form === form)) return;
  const root = doc.createElement('div');
  root.className = `wpwl-widget wpwl-style-${settings.style}`;
  root.lang = bcp47(locale);
  if (isRtl(locale)) root.dir = 'rtl';
  form.before(root);
  b.mounted.push({ root, form, hidden: form.hidden, display: form.style.display });
  form.hidden = true;
  form.style.display = 'none';
  if (form.parentElement?.closest('form')) {
    report(b, widgetError('form.paymentWidgets is inside another form; the widget would nest forms.'));
    render(<Message text={strings.errorMessages.nestedForm} />, root);
    return;
  }
  const brands = parseBrands(form);
  if (brands.length === 0) report(b, widgetError('form.paymentWidgets lists no brands (data-brands).'));
  render(
    <Ctx.Provider value={contextFor(b, form, strings)}>
      <Widget methods={planMethods(brands, b.checkout.session.peek()?.brands)} />
    </Ctx.Provider>,
    root,
  );
}

/** The session read at start (none in fast checkout); a malformed or missing id closes the widget. */
function firstRead(b: Boot): Promise<SessionRead | undefined> {
  const { idParam, checkout } = b;
  if (idParam !== undefined && !CHECKOUT_ID.test(idParam)) {
    report(b, invalidCheckoutId('The checkoutId in the script URL is malformed.'));
    checkout.id.value = undefined;
    checkout.closed.value = 'invalidCheckout';
  } else if (idParam !== undefined) {
    return b.options.early?.sessionRead ?? readSession(b.apiBase, idParam, b.fetch);
  } else if (b.settings.createCheckout === undefined) {
    report(b, invalidCheckoutId('No checkoutId in the script URL and no createCheckout option.'));
    checkout.closed.value = 'invalidCheckout';
  }
  return Promise.resolve(undefined);
}

/**
 * Whether boot starts the card frames: the script names a checkout (fast checkout has no card form)
 * and no form on the page yet lists only other brands. A form parsed later, a session whose channel
 * takes no card, or no form.paymentWidgets at all leaves them unused: removed once the widget is drawn.
 */
function wantsCardFrames(b: Boot): boolean {
  if (b.idParam === undefined || b.checkout.closed.peek() !== null) return false;
  return formsWantCards(b.doc);
}

export function start(options: StartOptions): WpwlGlobal {
  const b = setup(options);
  const { win, doc, settings, rawOptions } = b;
  partsFrom(doc, b.apiBase, options.script.nonce);
  const link = stylesheet(doc, new URL('widget/paymentWidgets.css', b.apiBase).href, options.script.nonce);
  const api = globalApi(b, link);
  win.wpwl = api;
  updateInfo(b);
  // The session, the language, the DOM and the card frames side by side.
  const sessionRead = firstRead(b);
  if (wantsCardFrames(b)) b.bus.prestart(doc, b.idParam as string, win.location.origin);
  // The language's texts under the page's own labels and errorMessages.
  const strings = loadStrings(b.locale, b.apiBase, b.fetch)
    .catch(() => EN)
    .then((texts) => mergeStrings({ labels: settings.labels, errorMessages: settings.errorMessages }, texts));
  void domReady(doc)
    .then(() => {
      // Once the page is parsed (not before: its DOMContentLoaded would wait), any amount formatted
      // once while the session is still read: the page's first Intl.NumberFormat costs 15-30 ms
      // (the engine loads ICU's data), every later one well under one, so the pay button's amount
      // no longer pays it on the way to the drawn form.
      formatAmount('', 'EUR', b.locale);
      return Promise.all([strings, sessionRead, preloadParts(doc.querySelectorAll('form.paymentWidgets'))]);
    })
    .then(async ([texts, read]) => {
      await prepareParts(
        doc.querySelectorAll('form.paymentWidgets'),
        read?.kind === 'ok' ? read.session : undefined,
        settings,
      );
      if (b.unloaded) return;
      adopt(b, read);
      for (const form of Array.from(doc.querySelectorAll<HTMLFormElement>('form.paymentWidgets'))) {
        mount(b, form, texts);
      }
      b.bus.release();
      if (b.unloaded) return;
      api.isReady = true;
      callback(rawOptions, 'onReady', undefined);
      preloadOverlays(win);
    })
    .catch((error: unknown) =>
      report(b, widgetError(error instanceof Error ? error.message : String(error))),
    );
  return api;
}

/** A component from a part of the widget (components/internal/lazy.tsx): fetched ahead of drawing. */
const preloadOf = (component: unknown): Promise<unknown> | undefined =>
  (component as { preload?: () => Promise<unknown> } | undefined)?.preload?.();

const plannedKinds = (forms: ArrayLike<HTMLFormElement>): Set<string> =>
  new Set(Array.from(forms, (form) => planMethods(parseBrands(form))).flatMap((p) => p.map((m) => m.kind)));

/**
 * The parts the page's forms are drawn with, fetched while the session is read, so that `onReady`
 * still comes once they are drawn (brands the session then drops were fetched for nothing).
 */
function preloadParts(forms: ArrayLike<HTMLFormElement>): Promise<unknown> {
  return Promise.all([...plannedKinds(forms)].map((kind) => preloadOf(registry.get(kind)?.Component)));
}

/**
 * The overlays' parts (the modal's dialog), fetched once the widget is drawn, when the page is idle:
 * not before the card form works, and there when a payment's answer opens the modal.
 */
function preloadOverlays(win: Window): void {
  const fetchAll = () => {
    for (const overlay of registry.overlays) void preloadOf(overlay);
  };
  if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(fetchAll, { timeout: 1000 });
  else win.setTimeout(fetchAll, 0);
}

/** Once the session is read: the parts it calls for (the registrations' form, a method's `prepare`). */
function prepareParts(
  forms: ArrayLike<HTMLFormElement>,
  session: Session | undefined,
  settings: Settings,
): Promise<unknown> {
  const waits = [...plannedKinds(forms)].map((kind) => registry.get(kind)?.prepare?.(session, settings));
  if ((session?.registrations.length ?? 0) > 0) waits.push(preloadOf(registry.registrations));
  return Promise.all(waits);
}

function domReady(doc: Document): Promise<void> {
  if (doc.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => doc.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
}

/** The widget's stylesheet, first in <head> so the page's own rules on wpwl-* classes win. */
function stylesheet(doc: Document, href: string, nonce: string | undefined): HTMLLinkElement | undefined {
  for (const el of Array.from(doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'))) {
    if (el.href === href) return undefined;
  }
  const link = doc.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  if (nonce) link.nonce = nonce;
  link.setAttribute('data-wpwl', '');
  (doc.head ?? doc.documentElement).prepend(link);
  return link;
}
