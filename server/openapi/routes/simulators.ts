/** The OpenAPI entries of server/processors/simulator/routes.ts and acquirer-routes.ts. */
import type { RouteDoc } from '../route-doc';

const TEST_ONLY = 'Test mode only (the simulated issuer and providers); see /docs/test-data.';

const pageRoutes = (path: string, what: string): RouteDoc[] =>
  (['GET', 'POST'] as const).map((method) => ({
    method,
    path,
    tag: 'Simulators',
    summary: `${what} (${method})`,
    description: `${TEST_ONLY} Where redirect.url of a pending payment sends the shopper, with redirect.parameters.`,
    auth: 'public',
    content: 'html',
    answers: { 200: 'The page.', 400: 'Unknown or finished session.' },
  }));

const answerRoute = (path: string, what: string): RouteDoc => ({
  method: 'POST',
  path,
  tag: 'Simulators',
  summary: what,
  description: `${TEST_ONLY} The page's form posts the shopper's answer; the payment ends and the shopper returns to shopperResultUrl.`,
  auth: 'public',
  content: 'html',
  answers: {
    303: 'To shopperResultUrl.',
    200: 'A page telling the widget (returnMode=message).',
    400: 'Unknown or finished session.',
  },
});

export const SIMULATOR_ROUTES: readonly RouteDoc[] = [
  ...pageRoutes('/simulators/acs/challenge', "The simulated issuer's 3-D Secure challenge page"),
  answerRoute('/simulators/acs/challenge/answer', "The shopper's answer to the challenge"),
  ...pageRoutes('/simulators/redirect', "A simulated redirect method's provider page"),
  answerRoute('/simulators/redirect/answer', "The shopper's answer on the provider page"),
  {
    method: 'POST',
    path: '/simulators/acs/app/challenge',
    tag: 'Simulators',
    summary: "App-based 3-D Secure: the SDK's challenge with the access control server",
    description: `${TEST_ONLY} A CReq (JSON) naming acsTransID with challengeDataEntry or challengeCancel; the CRes says transStatus.`,
    auth: 'public',
    answers: { 200: 'The CRes.', 400: 'Unknown transaction or malformed CReq.' },
  },
  {
    method: 'GET',
    path: '/simulators/simulator.css',
    tag: 'Simulators',
    summary: "The simulators' pages' style",
    auth: 'public',
    content: 'css',
    answers: { 200: 'The style sheet.' },
  },
  {
    method: 'GET',
    path: '/simulators/return.js',
    tag: 'Simulators',
    summary: "The simulators' return page script",
    auth: 'public',
    content: 'javascript',
    answers: { 200: 'The script.' },
  },
  {
    method: 'GET',
    path: '/simulators/wallets/cards',
    tag: 'Simulators',
    summary: "The simulated wallets' test cards",
    description: TEST_ONLY,
    auth: 'public',
    answers: { 200: 'The cards a simulated wallet sheet offers.' },
  },
  {
    method: 'POST',
    path: '/simulators/wallets/token',
    tag: 'Simulators',
    summary: 'A simulated wallet payment token',
    description: `${TEST_ONLY} What the wallet sheet returns for the payment's walletX.paymentToken.`,
    auth: 'public',
    answers: { 200: 'The token.', 400: 'Unknown wallet or card.' },
  },
  {
    method: 'POST',
    path: '/simulators/acquirer/chargebacks',
    tag: 'Simulators',
    summary: 'The simulated acquirer raises a chargeback',
    description: `${TEST_ONLY} Form: entityId, id (the payment), optional amount and chargebackResultCode. In production the merchant's Bearer token is required.`,
    auth: 'public',
    answers: {
      200: 'The chargeback (CB) as a payment.',
      400: 'Refused (not a simulated payment, amount too large …).',
      401: 'In production, no credentials.',
      403: 'The token may not use the channel.',
    },
  },
];
