/**
 * Webhooks and deliveries as storage keeps them (server/storage/webhooks/model.ts): the records
 * and the WebhookStore port the dispatcher, registration, the admin API and the CLI use.
 */
export type {
  AttemptResult,
  Delivery,
  DeliveryFilter,
  DeliveryStatus,
  Webhook,
  WebhookStore,
} from '../storage/webhooks/model';
