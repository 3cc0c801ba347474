/**
 * The OpenAPI entries of server/http/routes/connector-return.ts: the gateway's own pages of a
 * connector's pending payment (its processor's 3-D Secure challenge or provider page); and of
 * server/http/routes/connector-notifications.ts, where the processors send their notifications.
 */
import type { RouteDoc } from '../route-doc';
import { SAMPLE } from '../samples';

const both = (path: string, summary: string, description: string, answers: RouteDoc['answers']): RouteDoc[] =>
  (['GET', 'POST'] as const).map((method) => ({
    method,
    path,
    tag: 'Payments',
    summary: `${summary} (${method})`,
    description,
    auth: 'public',
    content: 'html',
    answers,
  }));

export const CONNECTOR_PAGE_ROUTES: readonly RouteDoc[] = [
  ...both(
    '/connectors/redirect',
    "A connector's pending payment: on to the processor's page",
    "Where redirect.url of a connector's pending payment sends the shopper (redirect.parameters: session): a page that sends them on to the processor's challenge or provider page.",
    { 200: 'The page.', 404: 'Unknown or finished session.' },
  ),
  ...both(
    '/connectors/return/:paymentId',
    "A connector's pending payment: the shopper back from the processor",
    "The return address the processor was given: the gateway asks the processor for the verdict, ends the payment, and sends the shopper to shopperResultUrl (inside the widget's frame, to a page that tells the widget).",
    {
      303: 'To shopperResultUrl.',
      200: 'A page telling the widget, or the result without a shopperResultUrl.',
      404: 'No such pending payment.',
    },
  ),
  {
    method: 'GET',
    path: '/connectors/forward.js',
    tag: 'Payments',
    summary: "The script that sends the redirect page's form on",
    auth: 'public',
    content: 'javascript',
    answers: { 200: 'The script.' },
    examples: [{ name: 'connectorForwardScript', summary: 'The script', answer: { status: 200 } }],
  },
  {
    method: 'POST',
    path: '/connectors/:kind/notifications/:entityId',
    tag: 'Payments',
    summary: "A processor's notification",
    description:
      "Where a channel's processor (kind: adyen, stripe) sends its notifications; the address the channel's `connectorSetup` shows once its connector is set. The raw body and headers are verified by the connector's own signature scheme (Adyen's HMAC, Stripe's Stripe-Signature); a verified notification ends the payment it names when it is still pending with the processor (PAYMENT UPDATED to the merchant), once: the same notification again, or after the shopper's return ended it, changes nothing. Answered 200 with what the processor expects whether or not it changed anything, so that it stops resending.",
    auth: 'public',
    content: 'text',
    answers: {
      200: 'Verified: the acknowledgement the processor expects (Adyen: `[accepted]`; Stripe: empty).',
      401: 'Not the processor\u2019s signature (800.900.300): nothing changes.',
      404: 'No channel of this environment with a connector of that kind, or a kind that takes no notifications.',
      413: 'The body is over the limit.',
    },
    examples: [
      {
        name: 'connectorNotificationNoConnector',
        summary: 'To a channel without that connector',
        path: { kind: 'adyen', entityId: SAMPLE.entityId },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  },
];
