/**
 * The document's `webhooks` (OpenAPI 3.1): what the gateway posts to a merchant's webhook URL,
 * one entry per notification type of the contract (shared/contract/notification.ts), with the
 * test notification a registration sends first. The body is the notification's JSON, or for an
 * encrypted webhook (the default) its hex ciphertext with the IV and tag in headers; every
 * delivery is signed (X-Signature).
 */
import { NOTIFICATION_HEADERS, NOTIFICATIONS, notificationName } from '../../shared/contract';
import type { JsonSchema } from './schema';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The headers of a delivery, as parameters: the signature always, the IV and tag when encrypted. */
const HEADERS = Object.entries(NOTIFICATION_HEADERS).map(([name, header]) => ({
  name,
  in: 'header',
  required: !header.encryptedOnly,
  description: header.description,
  schema: { type: 'string', pattern: header.pattern },
}));

const ANSWERS = {
  200: { description: 'Received: any 2xx ends the delivery.' },
  400: {
    description:
      'Any other status, or no answer within 30 s: the delivery is retried with growing delays, then dead-lettered (the admin API can redeliver it).',
  },
};

/** One webhook: the notification's JSON, or its encryption. */
function webhook(type: string, description: string): JsonSchema {
  const schemaName = notificationName(type);
  return {
    post: {
      operationId: `on${schemaName}`,
      summary: `${type} notification`,
      description: `${description} An encrypted webhook receives the hex ciphertext of this JSON (EncryptedNotification) with X-Initialization-Vector and X-Authentication-Tag; a plain one (encrypted: false) the JSON itself, card and account numbers masked. See /docs/webhooks.`,
      tags: ['Webhooks'],
      // the merchant's endpoint authenticates the gateway by the signature and the key, not by a scheme
      security: [],
      parameters: HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { oneOf: [ref('EncryptedNotification'), ref(schemaName)] } },
        },
      },
      responses: ANSWERS,
    },
  };
}

/** The `webhooks` of the document: each notification type the gateway sends, then `test`. */
export function webhooks(schemas: Readonly<Record<string, JsonSchema>>): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [type, schema] of Object.entries(NOTIFICATIONS)) {
    if (schemas[notificationName(type)] === undefined)
      throw new Error(`the contract names no ${notificationName(type)}`);
    out[type] = webhook(type, schema.description ?? '');
  }
  out.test = webhook(
    'test',
    'Sent once when the webhook is registered, encrypted as the real ones will be: answer 2xx to confirm it.',
  );
  return out;
}
