/** The flags of a channel connector's fields (the admin API's `connector.<field>`, backoffice/channels/connector.ts). */
export const CONNECTOR_FLAGS = {
  'connector.kind': '--connector',
  'connector.baseUrl': '--connector-url',
  'connector.entityId': '--connector-entity',
  'connector.accessToken': '--connector-token',
  'connector.apiKey': '--connector-api-key',
  'connector.merchantAccount': '--connector-merchant-account',
  'connector.hmacKey': '--connector-hmac-key',
  'connector.webhookSecret': '--connector-webhook-secret',
} as const;
