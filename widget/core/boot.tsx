/**
 * Boot: read the script's own URL (gateway address and checkoutId), `window.wpwlOptions`, then
 * find every `form.paymentWidgets` once the DOM is there (at once when the script was appended
 * late) and render the widget before each, hiding the page's form. `window.wpwl` offers the
 * checkout and `unload()`; loading the script again after unload starts afresh.
 */
import { signal } from '@preact/signals';
import { render } from 'preact';
import { bcp47, EN, isRtl, loadStrings, mergeStrings, resolveLocale, type Strings } from '../language';
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
import { invalidCheckoutId, type WpwlError, widgetError } from './errors';
import { FrameBus } from './frame-bus';
import { Message } from './Message';
import { callback, readSettings } from './options';
import { Widget } from './Widget';

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
}

/** The script element running now, or the last paymentWidgets.js script on the page. */
export function ownScript(doc: Document): { src: string; nonce?: string } | undefined {
  const current = doc.currentScript as HTMLScriptElement | null;
  const scripts = Array.from(doc.querySelectorAll<HTMLScriptElement>('script[src*="paymentWidgets.js"]'));
  const el = current?.src ? current : scripts[scripts.length - 1];
  if (!el) return undefined;
  return { src: el.src, nonce: el.nonce || el.getAttribute('nonce') || undefined };
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export function start(options: StartOptions): WpwlGlobal {
  const win = options.win as Page;
  const doc = win.document;
  const fetchImpl = options.fetch ?? win.fetch.bind(win);
  const now = options.now ?? (() => new Date());

  const previous = win.wpwl;
  if (previous && typeof previous.unload === 'function') previous.unload();

  const scriptUrl = new URL(options.script.src, doc.baseURI);
  const apiBase = new URL('./', scriptUrl).href;
  const rawOptions = win.wpwlOptions;
  const settings = readSettings(rawOptions);
  const locale = resolveLocale(settings.locale);
  const idParam = scriptUrl.searchParams.get('checkoutId')?.trim() || undefined;

  const checkout: CheckoutState = checkoutState(idParam);
  const info: CheckoutInfo = {};
  const mounted: {
    root: HTMLElement;
    form: HTMLFormElement;
    hidden: HTMLElement['hidden'];
    display: string;
  }[] = [];
  const timers: ReturnType<typeof setTimeout>[] = [];
  const bus = new FrameBus(win, scriptUrl.origin, apiBase);
  const announce = signal('');
  let unloaded = false;
  let sequence = 0;

  const report = (error: WpwlError) => {
    if (unloaded) return;
    const handler = (rawOptions as { onError?: unknown } | undefined)?.onError;
    if (typeof handler === 'function') callback(rawOptions, 'onError', undefined, error);
    else console.warn(`paymentWidgets: ${error.name}: ${error.message}`);
  };

  const link = stylesheet(doc, new URL('widget/paymentWidgets.css', apiBase).href, options.script.nonce);

  const api: WpwlGlobal = {
    version: VERSION,
    checkout: info,
    isReady: false,
    unload() {
      if (unloaded) return;
      unloaded = true;
      for (const t of timers) clearTimeout(t);
      for (const m of mounted) {
        render(null, m.root);
        m.root.remove();
        m.form.hidden = m.hidden;
        m.form.style.display = m.display;
      }
      mounted.length = 0;
      bus.destroy();
      link?.remove();
      api.isReady = false;
    },
  };
  win.wpwl = api;

  const updateInfo = () => {
    const id = checkout.id.peek();
    const session = checkout.session.peek();
    info.id = id;
    info.kind = session?.kind ?? 'payment';
    info.resourcePath = id ? resourcePath(id, session?.kind ?? 'payment') : undefined;
    info.amount = settings.checkoutAmount ?? session?.amount;
    info.currency = session?.currency;
    info.state = session?.state;
    info.expiresAt = session?.expiresAt;
  };
  updateInfo();

  const close = (why: Closed) => {
    if (checkout.closed.peek() === why) return;
    checkout.closed.value = why;
    if (why === 'sessionExpired') report(invalidCheckoutId('The checkout has expired.'));
  };

  const adopt = (read: SessionRead | undefined) => {
    if (read === undefined) return;
    if (read.kind === 'notFound') {
      report(invalidCheckoutId('No checkout exists for this checkoutId.'));
      close('invalidCheckout');
    } else if (read.kind === 'error') {
      report(widgetError(`The checkout could not be read: ${read.message}`));
    } else {
      checkout.session.value = read.session;
      if (read.session.state === 'expired') close('sessionExpired');
      else if (read.session.state === 'completed') close('completed');
      else watchExpiry(read.session);
    }
    updateInfo();
  };

  const watchExpiry = (session: Session) => {
    const at = session.expiresAt ? Date.parse(session.expiresAt) : Number.NaN;
    if (Number.isNaN(at)) return;
    const ms = at - now().getTime();
    if (ms <= 0) close('sessionExpired');
    else if (ms < MAX_TIMER_MS) timers.push(setTimeout(() => close('sessionExpired'), ms));
  };

  /**
   * Fast checkout: the page's createCheckout({brand}) (an id or a thenable of one) makes the
   * checkout on the first click, then its session is read (amount, currency) before anything else
   * happens. A failure (thrown, rejected, empty or malformed) reports an error and gives undefined:
   * the form says so and the next click asks again. Clicks while one is under way share it.
   */
  let creating: Promise<string | undefined> | undefined;
  const create = async (brand: string): Promise<string | undefined> => {
    const fn = settings.createCheckout;
    if (fn === undefined) {
      report(invalidCheckoutId('No checkoutId in the script URL and no createCheckout option.'));
      return undefined;
    }
    let created: unknown;
    try {
      created = await fn.call(undefined, { brand });
    } catch (error) {
      report(widgetError(`createCheckout failed: ${error instanceof Error ? error.message : String(error)}`));
      return undefined;
    }
    if (typeof created === 'string') created = created.trim();
    if (typeof created !== 'string' || !CHECKOUT_ID.test(created)) {
      report(invalidCheckoutId('createCheckout did not give a checkout id.'));
      return undefined;
    }
    if (unloaded) return undefined;
    checkout.id.value = created;
    adopt(await readSession(apiBase, created, fetchImpl));
    return checkout.closed.peek() === null ? created : undefined;
  };
  const ensureCheckout = (brand: string): Promise<string | undefined> => {
    const id = checkout.id.peek();
    if (id !== undefined) return Promise.resolve(id);
    creating ??= create(brand).finally(() => {
      creating = undefined;
    });
    return creating;
  };

  const navigate = (url: string, target = settings.resultTarget) => {
    if (options.navigate) return target === undefined ? options.navigate(url) : options.navigate(url, target);
    try {
      if (target === '_top' && win.top) win.top.location.href = url;
      else if (target === '_parent' && win.parent) win.parent.location.href = url;
      else if (target && target !== '_self' && target !== '_blank') win.open(url, target);
      else win.location.href = url;
    } catch {
      win.location.href = url;
    }
  };

  const contextFor = (form: HTMLFormElement, strings: Strings): WidgetContext => ({
    win,
    doc,
    settings,
    options: rawOptions,
    strings,
    locale,
    apiBase,
    pageOrigin: win.location.origin,
    bus,
    checkout,
    action: form.getAttribute('action'),
    fetch: fetchImpl,
    announce,
    uid: (name) => `wpwl-${++sequence}-${name}`,
    now,
    report,
    navigate,
    ensureCheckout,
    close,
    refresh: async () => {
      const id = checkout.id.peek();
      if (id === undefined) return undefined;
      const read = await readSession(apiBase, id, fetchImpl);
      adopt(read);
      return read.kind === 'ok' ? read.session : undefined;
    },
    modal: signal<ModalFlow | null>(null),
  });

  const mount = (form: HTMLFormElement, strings: Strings) => {
    if (mounted.some((m) => m.form === form)) return;
    const root = doc.createElement('div');
    root.className = `wpwl-widget wpwl-style-${settings.style}`;
    root.lang = bcp47(locale);
    if (isRtl(locale)) root.dir = 'rtl';
    form.before(root);
    mounted.push({ root, form, hidden: form.hidden, display: form.style.display });
    form.hidden = true;
    form.style.display = 'none';
    if (form.parentElement?.closest('form')) {
      report(widgetError('form.paymentWidgets is inside another form; the widget would nest forms.'));
      render(<Message text={strings.errorMessages.nestedForm} />, root);
      return;
    }
    const brands = parseBrands(form);
    if (brands.length === 0) report(widgetError('form.paymentWidgets lists no brands (data-brands).'));
    render(
      <Ctx.Provider value={contextFor(form, strings)}>
        <Widget methods={planMethods(brands, checkout.session.peek()?.brands)} />
      </Ctx.Provider>,
      root,
    );
  };

  let sessionRead: Promise<SessionRead | undefined> = Promise.resolve(undefined);
  if (idParam !== undefined && !CHECKOUT_ID.test(idParam)) {
    report(invalidCheckoutId('The checkoutId in the script URL is malformed.'));
    checkout.id.value = undefined;
    checkout.closed.value = 'invalidCheckout';
  } else if (idParam !== undefined) {
    sessionRead = readSession(apiBase, idParam, fetchImpl);
  } else if (settings.createCheckout === undefined) {
    report(invalidCheckoutId('No checkoutId in the script URL and no createCheckout option.'));
    checkout.closed.value = 'invalidCheckout';
  }
  // The language's texts under the page's own labels and errorMessages.
  const strings = loadStrings(locale, apiBase, fetchImpl)
    .catch(() => EN)
    .then((texts) => mergeStrings({ labels: settings.labels, errorMessages: settings.errorMessages }, texts));

  void domReady(doc)
    .then(() => Promise.all([strings, sessionRead]))
    .then(([texts, read]) => {
      if (unloaded) return;
      adopt(read);
      for (const form of Array.from(doc.querySelectorAll<HTMLFormElement>('form.paymentWidgets'))) {
        mount(form, texts);
      }
      if (unloaded) return;
      api.isReady = true;
      callback(rawOptions, 'onReady', undefined);
    })
    .catch((error: unknown) => report(widgetError(error instanceof Error ? error.message : String(error))));

  return api;
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
