/**
 * The OpenAPI entries of server/app.ts (result codes), server/http/routes/widget.ts and
 * server/http/routes/docs.ts.
 */
import { DONE, type RouteDoc } from '../route-doc';

const page = (path: string, summary: string): RouteDoc => ({
  method: 'GET',
  path,
  tag: 'Documentation',
  summary,
  auth: 'public',
  content: 'html',
  answers: { 200: 'The page (served from the gateway: nothing is loaded from elsewhere).' },
  examples: [{ name: `page${path.replaceAll('/', '_')}`, summary: 'The page', answer: { status: 200 } }],
});

/** The document itself: JSON outside the envelope. */
const OPENAPI_DOCUMENT = {
  type: 'object',
  description: 'An OpenAPI 3.1 document.',
  properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
};

export const GATEWAY_FILE_ROUTES: readonly RouteDoc[] = [
  {
    method: 'GET',
    path: '/v1/resultcodes',
    schema: 'ResultCodeList',
    tag: 'Result codes',
    summary: 'The result-code catalogue',
    description:
      'Every result code with its description (the same list as `x-resultCodes` of this document).',
    auth: 'public',
    answers: { 200: '`resultCodes`: code and description of each (000.000.100).' },
    examples: [{ name: 'resultCodes', summary: 'The catalogue', answer: DONE }],
  },
  {
    method: 'GET',
    path: '/v1/paymentWidgets.js',
    tag: 'Widget',
    summary: 'The widget script',
    description:
      'Loaded by the shop page as `<script src=".../v1/paymentWidgets.js?checkoutId={id}">`; see /docs/widget for its options, callbacks, styles, languages and the CSP to set.',
    auth: 'public',
    content: 'javascript',
    answers: { 200: 'The script (one static file: its SRI hash is fixed per build).' },
    examples: [{ name: 'widgetScript', summary: 'The script', answer: { status: 200 } }],
  },
  {
    method: 'GET',
    path: '/v1/widget/*',
    tag: 'Widget',
    summary: "The widget's files",
    description:
      'Styles, language files, brand logos and the card-field frames; only files of the build manifest.',
    auth: 'public',
    content: 'file',
    refusals: 'text',
    answers: { 200: 'The file.', 404: 'Not a file of the widget build.' },
    examples: [
      {
        name: 'widgetMissingFile',
        summary: 'A file not in the build',
        path: { file: 'missing.js' },
        answer: { status: 404 },
      },
    ],
  },
  {
    method: 'GET',
    path: '/v1/fastcheckout/integrity',
    tag: 'Widget',
    summary: "The widget script's SRI hash",
    auth: 'public',
    answers: { 200: 'The integrity value for the script tag.', 404: 'No widget build.' },
    examples: [{ name: 'widgetIntegrity', summary: 'The hash', answer: DONE }],
  },
  {
    method: 'GET',
    path: '/v1/openapi.json',
    tag: 'Documentation',
    summary: 'This document',
    description:
      'OpenAPI 3.1, generated from the parameter catalogue, the request kinds, the routes and the result codes.',
    auth: 'public',
    content: 'data',
    data: OPENAPI_DOCUMENT,
    answers: { 200: 'The OpenAPI document.' },
    examples: [{ name: 'openapi', summary: 'The document', answer: { status: 200 } }],
  },
  {
    method: 'GET',
    path: '/admin/v1/openapi.json',
    tag: 'Documentation',
    summary: 'This document with the admin API',
    description:
      "The whole document, the admin API included, for the admin API's callers: a production gateway's /v1/openapi.json leaves the admin API out.",
    auth: 'admin',
    content: 'data',
    data: OPENAPI_DOCUMENT,
    answers: { 200: 'The OpenAPI document, admin API included.', 401: 'No session or operator token.' },
    examples: [{ name: 'openapiAdmin', summary: 'The whole document', answer: { status: 200 } }],
  },
  page('/docs', 'The API reference (this document, rendered)'),
  page('/docs/widget', 'The widget: options, callbacks, CSS classes and variables, languages, CSP'),
  page('/docs/test-data', 'Test cards and triggers of the simulators'),
  page('/docs/webhooks', 'Webhooks: payloads and decryption in Node, PHP and Python'),
  page('/docs/reconciliation', 'The reconciliation file: its columns'),
  {
    ...page('/docs/guides', 'The guides (docs/README.md, their index)'),
    refusals: 'text',
    answers: { 200: 'The index of the guides.', 404: 'The installed gateway has no docs/README.md.' },
  },
  {
    method: 'GET',
    path: '/docs/guides/:name',
    tag: 'Documentation',
    summary: 'A guide (docs/<name>.md), rendered',
    description:
      "The repository's guides as served: links between guides go to their /docs/guides address, headings carry GitHub's anchors.",
    auth: 'public',
    content: 'html',
    refusals: 'text',
    answers: { 200: 'The guide.', 404: 'No such guide.' },
    examples: [
      {
        name: 'guide',
        summary: 'The getting-started guide',
        path: { name: 'getting-started' },
        answer: { status: 200 },
      },
      {
        name: 'guideMissing',
        summary: 'A guide that is none',
        path: { name: 'missing' },
        answer: { status: 404 },
      },
    ],
  },
  {
    method: 'GET',
    path: '/docs/guides/screenshots/:file',
    tag: 'Documentation',
    summary: "A guide's screenshot (docs/screenshots/<file>.png)",
    auth: 'public',
    content: 'png',
    refusals: 'text',
    answers: { 200: 'The PNG.', 404: 'No such screenshot.' },
    examples: [
      {
        name: 'guideScreenshotMissing',
        summary: 'A screenshot that is none',
        path: { file: 'missing.png' },
        answer: { status: 404 },
      },
    ],
  },
  {
    method: 'GET',
    path: '/docs/assets/*',
    tag: 'Documentation',
    summary: "The docs pages' script and styles",
    auth: 'public',
    content: 'file',
    refusals: 'text',
    answers: { 200: 'The file.', 404: 'No such file.' },
    examples: [
      {
        name: 'docsMissingFile',
        summary: 'A file that is none',
        path: { file: 'missing.js' },
        answer: { status: 404 },
      },
    ],
  },
];
