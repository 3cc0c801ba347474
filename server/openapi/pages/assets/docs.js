// The API reference: Redoc (served from the gateway) renders /v1/openapi.json into #redoc.
// A file of its own, not an inline script, so the page's CSP allows scripts from 'self' only.
/* global Redoc */
Redoc.init(
  '/v1/openapi.json',
  {
    // no fonts from the internet: the system's
    theme: {
      typography: {
        fontFamily: 'system-ui, sans-serif',
        headings: { fontFamily: 'system-ui, sans-serif' },
        code: { fontFamily: 'ui-monospace, monospace' },
      },
      colors: { primary: { main: '#1d4f91' }, text: { primary: '#1a1a1a' } },
      sidebar: { backgroundColor: '#f3f4f6', textColor: '#1a1a1a' },
      rightPanel: { backgroundColor: '#1d2b3a' },
    },
    expandResponses: '200',
    jsonSampleExpandLevel: 2,
    sortPropsAlphabetically: false,
    hideHostname: false,
    // the browser's own scrollbars: Redoc's scripted ones measure the page as they mount, a layout
    // of the whole reference each (the larger part of its first draw), and are no help to a reader
    nativeScrollbars: true,
  },
  document.getElementById('redoc'),
);

// Redoc's code samples scroll sideways: each gets a tab stop, so a keyboard can scroll it too.
const focusable = (root) => {
  for (const pre of root.querySelectorAll('pre:not([tabindex])')) pre.tabIndex = 0;
};
new MutationObserver(() => focusable(document.getElementById('redoc'))).observe(
  document.getElementById('redoc'),
  {
    childList: true,
    subtree: true,
  },
);
