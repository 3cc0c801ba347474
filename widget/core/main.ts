/**
 * The main part (widget/build/parts.ts): the rest of the widget, loaded by paymentWidgets.js (the
 * loader, `./index.ts`) once it has started the session read and the card frames, pinned by the
 * sha384 the loader carries. The one module of core that reaches components: through `../methods`,
 * which registers every payment method before the widget starts. Its body runs once per load of
 * paymentWidgets.js, then the loader calls `start`.
 */
import '../methods';

export { start } from './boot';
