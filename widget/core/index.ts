/**
 * paymentWidgets.js: the entry of the IIFE bundle. Runs once per load of the script.
 */
import '../styles/paymentWidgets.css';
import { ownScript, start } from './boot';

const script = ownScript(document);
if (script === undefined) {
  console.warn('paymentWidgets: cannot find its own <script> element');
} else {
  start({ win: window, script });
}
