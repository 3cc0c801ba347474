/**
 * The entry's first import (`./index.ts`): evaluated before every other module of the bundle, so the
 * session read and the card frames start while the rest of paymentWidgets.js is still being
 * evaluated (`./early.ts`). Imported by the entry only: tests call `earlyStart` themselves.
 */
import { type EarlyStart, earlyStart } from './early';

export const early: EarlyStart | undefined = earlyStart(window);
