/**
 * paymentWidgets.js, the loader (issue 21): the page's script, kept small so that its first
 * statements run as soon as it is downloaded. They send the session read, then the request for the
 * rest of the widget (the main part, `./main.ts`: Preact, the signals, boot, the methods), then
 * start the card frames (`./early.ts`); the main part's `start` takes the read and the frames over.
 *
 * The main part is fetched with the sha384 this script carries (`<link rel=modulepreload
 * integrity>`, widget/core/parts.ts), so the page's integrity attribute on paymentWidgets.js pins
 * everything that runs on the page. A main part that fails its check (or does not load) never runs:
 * the started frames are removed and the page's onError hears a WidgetError.
 */
import '../styles/paymentWidgets.css';
import { type EarlyStart, earlyStart } from './early';
import { type WpwlError, widgetError } from './errors';
import { callback } from './options';
import { partsFrom } from './parts';

/** Tells the page's onError (else the console) that the widget could not start. */
function failed(
  win: Window & { wpwlOptions?: unknown },
  early: EarlyStart | undefined,
  error: unknown,
): void {
  early?.bus.destroy();
  const reported: WpwlError = widgetError(
    `The widget did not load: ${error instanceof Error ? error.message : String(error)}`,
  );
  const options = win.wpwlOptions as { onError?: unknown } | undefined;
  if (typeof options?.onError === 'function') callback(options, 'onError', undefined, reported);
  else console.warn(`paymentWidgets: ${reported.name}: ${reported.message}`);
}

const loadMain = () => import('./main');
const loading: { main?: ReturnType<typeof loadMain> } = {};
const early = earlyStart(window, (script, apiBase) => {
  partsFrom(document, apiBase, script.nonce);
  loading.main = loadMain();
});
/**
 * While the main part is on its way, once the page is parsed (not before: its DOMContentLoaded
 * would wait): the page's first Intl.NumberFormat costs 15–30 ms (the engine loads ICU's data),
 * every later one well under one, so boot's own warm-up and the pay button's amount no
 * longer pay it between the main part's arrival and the drawn form.
 */
function warmNumberFormat(doc: Document): void {
  const warm = () => new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' }).format(0);
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', warm, { once: true });
  else warm();
}

if (early === undefined || loading.main === undefined) {
  console.warn('paymentWidgets: cannot find its own <script> element');
} else {
  warmNumberFormat(document);
  loading.main.then(
    ({ start }) => start({ win: window, script: early.script, early }),
    (error: unknown) => failed(window, early, error),
  );
}
