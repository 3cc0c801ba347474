/**
 * paymentWidgets.js: the entry of the IIFE bundle. Runs once per load of the script. Its first
 * import starts the session read and the card frames before the rest is evaluated
 * (`core/first.ts`). Above both core and the components: it imports `./methods`, which registers
 * every payment method before the widget starts, so that core never reaches a component.
 */
import { early } from './core/first';
import './styles/paymentWidgets.css';
import './methods';
import { ownScript, start } from './core/boot';

const script = early?.script ?? ownScript(document);
if (script === undefined) {
  console.warn('paymentWidgets: cannot find its own <script> element');
} else {
  start({ win: window, script, early });
}
