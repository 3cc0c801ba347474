/**
 * paymentWidgets.js: the entry of the IIFE bundle. Runs once per load of the script. Its first
 * import starts the session read and the card frames before the rest is evaluated (`./first.ts`).
 * The one module of core that reaches components: through `../methods`, which registers every
 * payment method before the widget starts.
 */
import { early } from './first';
import '../styles/paymentWidgets.css';
import '../methods';
import { ownScript, start } from './boot';

const script = early?.script ?? ownScript(document);
if (script === undefined) {
  console.warn('paymentWidgets: cannot find its own <script> element');
} else {
  start({ win: window, script, early });
}
