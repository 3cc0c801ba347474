/**
 * The card-field frame document's script (frames/card-field.html), served by the gateway.
 */
import './frame.css';
import { startField } from './field';

if (window.parent !== window) {
  startField({
    window,
    document,
    parent: window.parent,
    fetch: window.fetch.bind(window),
    openChannel: (name) => new BroadcastChannel(name),
    ancestorOrigin: window.location.ancestorOrigins?.[0],
  });
}
