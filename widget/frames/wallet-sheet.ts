/**
 * The simulated wallet sheet's script (frames/wallet-sheet.html), served by the gateway and shown
 * in the widget's modal. The sheet itself: sheet.tsx; its messages: wallet-protocol.ts.
 */
import './wallet-sheet.css';
import { startSheet } from './sheet';

const root = document.getElementById('sheet');
if (window.parent !== window && root !== null) {
  startSheet({
    window,
    href: window.location.href,
    parent: window.parent,
    fetch: window.fetch.bind(window),
    ancestorOrigin: window.location.ancestorOrigins?.[0],
    root,
  });
}
