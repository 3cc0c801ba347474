/**
 * What a webhook tells the merchant (spec, Events): `{type, action, payload}`, the payload the
 * API's own answer of the thing that changed (decisions: the payloads equal the API's answer),
 * built by shared/engine/answers/notifications.ts.
 */
import * as z from 'zod';
import { result } from './envelope';
import { paymentAnswer } from './payment';
import { registrationAnswer } from './registration';
import { answerTree, named, optionalText } from './registry';
import { scheduleAnswer } from './schedule';

/** PAYMENT: the payment's answer and what the shopper was shown (presentationAmount, presentationCurrency). */
export const paymentPayload = paymentAnswer.extend({
  presentationAmount: optionalText(),
  presentationCurrency: optionalText(),
});

/** RISK: the payment's answer with `risk` holding the score, the outcome and the rule that fired. */
export const riskPayload = paymentAnswer.extend({ risk: z.record(z.string(), answerTree) });

/** REGISTRATION: the registration's answer, its creation's result and ndc. */
export const registrationPayload = registrationAnswer.extend({ result, ndc: optionalText() });

/** SCHEDULE: the schedule's answer with its creation's result. */
export const schedulePayload = scheduleAnswer.extend({ result });

const action = z.enum(['CREATED', 'UPDATED', 'DELETED']);

/** A notification type's component name: PAYMENT → PaymentNotification. */
export const notificationName = (type: string): string =>
  `${type.charAt(0).toUpperCase()}${type.slice(1).toLowerCase()}Notification`;

/** One type's notification: its type, what happened, and the payload (the API's answer of it). */
const told = <Type extends string, Payload extends z.ZodType>(
  type: Type,
  payload: Payload,
  description: string,
) =>
  named(
    notificationName(type),
    z.object({ type: z.literal(type), action: action.optional(), payload }).describe(description),
  );

/** Every notification the gateway sends, by its type (the webhooks of the OpenAPI document). */
export const NOTIFICATIONS = {
  PAYMENT: told(
    'PAYMENT',
    paymentPayload,
    'A payment was made or changed: its answer, as GET /v1/payments/{id}.',
  ),
  RISK: told(
    'RISK',
    riskPayload,
    'A payment was screened: its answer with `risk` (score, outcome, the rule that fired).',
  ),
  REGISTRATION: told(
    'REGISTRATION',
    registrationPayload,
    'A registration was created, changed or deleted: its answer, as GET /v1/registrations/{id}.',
  ),
  SCHEDULE: told('SCHEDULE', schedulePayload, 'A schedule was created or descheduled: its answer.'),
} as const;

export const notification = named(
  'Notification',
  z.discriminatedUnion('type', [
    NOTIFICATIONS.PAYMENT,
    NOTIFICATIONS.RISK,
    NOTIFICATIONS.REGISTRATION,
    NOTIFICATIONS.SCHEDULE,
  ]),
);

/** What a webhook's registration sends first (lower-case `test`: the family's receivers dispatch on it). */
export const testNotification = named(
  'TestNotification',
  z
    .object({
      type: z.literal('test'),
      payload: z.object({ webhookId: z.string(), description: z.string() }),
      timestamp: z.string().describe('ISO 8601, UTC.'),
    })
    .describe('Sent when the webhook is registered: answer 2xx to confirm it.'),
);

/**
 * An encrypted notification's body as the merchant receives it: the hex of the AES-256-GCM
 * ciphertext of the notification's JSON under the webhook's key (sent as application/json,
 * though it is hex: receivers read it raw).
 */
export const encryptedNotification = named(
  'EncryptedNotification',
  z
    .string()
    .regex(/^(?:[0-9A-F]{2})+$/)
    .describe(
      "The upper-case hex ciphertext (AES-256-GCM, the webhook's 64-hex key) of a notification's JSON; decrypted with X-Initialization-Vector and X-Authentication-Tag.",
    ),
);

/** The headers of a delivery: the IV and tag of an encrypted one, and every one's signature. */
export const NOTIFICATION_HEADERS = {
  'X-Initialization-Vector': {
    encryptedOnly: true,
    pattern: '^[0-9A-F]{24}$',
    description: 'The 12-byte IV of the AES-256-GCM encryption, upper-case hex (encrypted webhooks only).',
  },
  'X-Authentication-Tag': {
    encryptedOnly: true,
    pattern: '^[0-9A-F]{32}$',
    description: 'The 16-byte GCM authentication tag, upper-case hex (encrypted webhooks only).',
  },
  'X-Signature': {
    encryptedOnly: false,
    pattern: '^t=[0-9]+,v1=[0-9a-f]{64}$',
    description:
      "`t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `<t>.<body as sent>` under the webhook's key; refuse a t far from your clock (see /docs/webhooks).",
  },
} as const;

export type TestNotification = z.infer<typeof testNotification>;
export type PaymentPayload = z.infer<typeof paymentPayload>;
export type RiskPayload = z.infer<typeof riskPayload>;
export type RegistrationPayload = z.infer<typeof registrationPayload>;
export type SchedulePayload = z.infer<typeof schedulePayload>;
export type NotificationMessage = z.infer<typeof notification>;
