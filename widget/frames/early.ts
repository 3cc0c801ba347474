/**
 * The frame script's first import (`./index.ts`): evaluated before every other module of the
 * frame's bundle, so the frame says `ready` (./announce.ts) before the field, the brand catalogue
 * and the CSS are evaluated (issue 21). Imported by the entry only: tests call `startField`.
 */
import { announce } from './announce';

export const announced =
  window.parent !== window
    ? announce({ window, parent: window.parent, ancestorOrigin: window.location.ancestorOrigins?.[0] })
    : undefined;
