/**
 * Adyen's standard notifications (../shared/facts/connectors/adyen/Webhooks-v1.json): a JSON body
 * of `notificationItems`, each a `NotificationRequestItem` signed with HMAC-SHA256 under the
 * merchant's HMAC key (hex) over `pspReference:originalReference:merchantAccountCode:
 * merchantReference:value:currency:eventCode:success`, base64 in `additionalData.hmacSignature`
 * (docs.adyen.com, "Verify HMAC signatures"). The scheme is checked by Adyen's own Node library's
 * HmacValidator, so the gateway verifies exactly as Adyen's library does.
 *
 * What a verified item says, as the kit's answer: AUTHORISATION success is the payment authorised,
 * its failure a decline; CAPTURE, REFUND, CANCELLATION (and CANCEL_OR_REFUND) success the
 * modification done, their failure (or CAPTURE_FAILED, REFUND_FAILED, REFUNDED_REVERSED, which
 * take back one told done: a late failure, shared/engine/steps/late-failure.ts) the referencing
 * workflow's "cannot capture / refund / reverse". The notice names the payment by Adyen's
 * pspReference (`theirId`: a modification's own, its ConnectorTxID1) and by `merchantReference`
 * (the gateway's id the connector sent as `reference`). A stored card is told as the answer's
 * `registrationId` (the connector's `<storedPaymentMethodId>:<shopperReference>`): in an
 * AUTHORISATION's `additionalData` (`tokenization.storedPaymentMethodId` and
 * `tokenization.shopperReference`, or the older `recurring.recurringDetailReference` and
 * `recurring.shopperReference`), or as RECURRING_CONTRACT, whose pspReference is the stored card
 * and `additionalData.shopperReference` its shopper; so the AUTHORISATION of a registration's
 * zero-amount check or its RECURRING_CONTRACT ends a registration whose answer was lost
 * (server/connectors/notices/registration.ts). Anything unverifiable (no HMAC key configured, a missing
 * or wrong signature, an unreadable body) is refused as 800.900.300 (invalid authentication):
 * never applied.
 */
import { createRequire } from 'node:module';
import type HmacValidatorClass from '@adyen/api-library/lib/src/utils/hmacValidator';
import { ResultCodes } from '../../../shared/result-codes';
import type { NotificationNotice, ProcessorNotification } from '../kit/contract';
import { type AdyenAnswer, registrationIdOf } from './response';

// The library is CommonJS whose named exports Node's ESM loader cannot see (they are getters):
// required as CommonJS, the same in Node, the production bundle (packages external) and Vitest.
const { default: HmacValidator } = createRequire(import.meta.url)(
  '@adyen/api-library/lib/src/utils/hmacValidator',
) as { default: typeof HmacValidatorClass };

/** One notification item, as Adyen sends it (the fields the HMAC signs, and what it tells). */
export interface NotificationItem {
  readonly pspReference: string;
  readonly originalReference?: string;
  readonly merchantAccountCode: string;
  readonly merchantReference: string;
  readonly amount: { readonly value: number; readonly currency: string };
  readonly eventCode: string;
  readonly success: string;
  readonly reason?: string;
  readonly eventDate?: string;
  readonly additionalData?: Readonly<Record<string, string>>;
}

/**
 * What a verified notification tells, for the route that applies it once (the kit's
 * NotificationNotice, with Adyen's own fields beside it).
 */
export interface AdyenNotice extends NotificationNotice {
  readonly eventCode: string;
  readonly success: boolean;
  /** For a modification: the pspReference of the payment it modifies. */
  readonly originalReference?: string;
}

export type NotificationAnswer = AdyenAnswer & { readonly notice?: AdyenNotice };

/** Each event's code when it failed (its success is the modification done). */
const FAILED: Readonly<Record<string, string>> = {
  AUTHORISATION: ResultCodes.DECLINED_BY_AUTHORIZATION_SYSTEM,
  CAPTURE: ResultCodes.CANNOT_CAPTURE,
  CAPTURE_FAILED: ResultCodes.CANNOT_CAPTURE,
  REFUND: ResultCodes.CANNOT_REFUND,
  REFUND_FAILED: ResultCodes.CANNOT_REFUND,
  REFUNDED_REVERSED: ResultCodes.CANNOT_REFUND,
  CANCELLATION: ResultCodes.CANNOT_REVERSE,
  CANCEL_OR_REFUND: ResultCodes.CANNOT_REVERSE,
  TECHNICAL_CANCEL: ResultCodes.CANNOT_REVERSE,
};

/**
 * Events that are failures whatever their `success` says: Adyen sends them with success "true"
 * (the event happened) when a capture or refund it had told done is taken back (the scheme
 * refused it: "…_FAILED"; the refund came back: REFUNDED_REVERSED).
 */
const ALWAYS_FAILED = new Set(['CAPTURE_FAILED', 'REFUND_FAILED', 'REFUNDED_REVERSED']);

const refused = (description: string): NotificationAnswer => ({
  code: ResultCodes.INVALID_AUTH,
  description,
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The items of a notification body; undefined when it is not one. */
export function notificationItems(body: string): NotificationItem[] | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(json) || !Array.isArray(json.notificationItems)) return undefined;
  const items: NotificationItem[] = [];
  for (const entry of json.notificationItems) {
    const item = isObject(entry) ? entry.NotificationRequestItem : undefined;
    if (!isObject(item) || typeof item.pspReference !== 'string' || typeof item.eventCode !== 'string')
      return undefined;
    items.push(item as unknown as NotificationItem);
  }
  return items.length === 0 ? undefined : items;
}

/** Whether `item` carries a valid signature under `hmacKey` (Adyen's library's check). */
export function signedBy(item: NotificationItem, hmacKey: string): boolean {
  try {
    return new HmacValidator().validateHMAC(item as never, hmacKey);
  } catch {
    // no hmacSignature, or a key that is not hex
    return false;
  }
}

/**
 * The registration a successful item tells stored (the connector's id of it); undefined when it
 * tells none (a payment that stored nothing, a modification).
 */
function storedOf(item: NotificationItem, success: boolean): string | undefined {
  if (!success) return undefined;
  const data = item.additionalData ?? {};
  const recurring = item.eventCode === 'RECURRING_CONTRACT';
  if (!recurring && item.eventCode !== 'AUTHORISATION') return undefined;
  const stored = recurring
    ? item.pspReference
    : (data['tokenization.storedPaymentMethodId'] ?? data['recurring.recurringDetailReference']);
  const shopper = recurring
    ? (data.shopperReference ?? data['recurring.shopperReference'])
    : (data['tokenization.shopperReference'] ?? data['recurring.shopperReference']);
  return stored && shopper ? registrationIdOf(stored, shopper) : undefined;
}

/** What one verified item says. */
function itemAnswer(item: NotificationItem): NotificationAnswer {
  const success = item.success === 'true' && !ALWAYS_FAILED.has(item.eventCode);
  const code = success
    ? ResultCodes.SUCCESS_LIVE
    : (FAILED[item.eventCode] ?? ResultCodes.UNDEFINED_CONNECTOR_ERROR);
  const stored = storedOf(item, success);
  return {
    code,
    processorCode: `${item.eventCode} ${item.success}`,
    id: item.pspReference,
    ...(stored === undefined ? {} : { registrationId: stored }),
    ...(item.reason ? { description: item.reason } : {}),
    notice: {
      // Adyen's own rule: the same event of the same pspReference, with the same success, is a duplicate
      eventId: `${item.eventCode}:${item.pspReference}:${item.success}`,
      // the reference the connector sent: the gateway's id of the payment (or modification)
      gatewayId: item.merchantReference,
      theirId: item.pspReference,
      // Adyen resends until it reads this
      acknowledgement: '[accepted]',
      eventCode: item.eventCode,
      success,
      ...(item.originalReference ? { originalReference: item.originalReference } : {}),
    },
  };
}

/**
 * A notification Adyen sent, verified under the channel's HMAC key and merchant account: what
 * its (first) item says, or refused. Every item must be signed: one bad item refuses the batch.
 */
export function verifyAdyenNotification(
  notification: ProcessorNotification,
  account: { readonly merchantAccount: string; readonly hmacKey?: string },
): NotificationAnswer {
  if (account.hmacKey === undefined || account.hmacKey === '')
    return refused('no HMAC key is configured for this channel: notifications cannot be verified');
  const items = notificationItems(notification.body);
  if (items === undefined) return refused('not a notification of Adyen');
  for (const item of items) {
    if (!signedBy(item, account.hmacKey)) return refused('the HMAC signature does not verify');
    if (item.merchantAccountCode !== account.merchantAccount)
      return refused('the notification is for another merchant account');
  }
  return itemAnswer(items[0] as NotificationItem);
}
