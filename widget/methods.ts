/**
 * The widget's payment methods: each folder of `components/` registers itself with
 * `core/registry.ts` when imported. The bundle's entry (`paymentWidgets.ts`) imports this list
 * once; a new method is a folder with an `index.ts` that registers its descriptor, and a line
 * here. The order of the lines does not matter (a descriptor's `order` does).
 */
import './components/Card';
import './components/DirectDebit';
import './components/VirtualAccount';
import './components/GiftCard';
import './components/Wallet';
import './components/Redirect';
import './components/OneClick';
import './components/internal';
