/**
 * The card-field frame document's script (frames/card-field.html), served by the gateway.
 *
 * Its CSS comes inside it (issue 21): adopted as a constructed stylesheet before the input exists,
 * instead of a `<link>` the document would fetch besides, whose loading would hold this module
 * script (a parser-inserted stylesheet blocks the document's scripts until it is loaded). The
 * frame's CSP is unchanged (`style-src 'self'`): the rules come from this same-origin script.
 */

// First (kept first by its name too, as the imports are sorted): binds the frame and says `ready`
// before the modules below are evaluated.
import { announced } from './early';
import { startField } from './field';
import css from './frame.css?inline';

if (announced !== undefined) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  startField(
    {
      window,
      document,
      parent: window.parent,
      fetch: window.fetch.bind(window),
      openChannel: (name) => new BroadcastChannel(name),
      ancestorOrigin: window.location.ancestorOrigins?.[0],
      sheet,
    },
    announced,
  );
}
