/**
 * The fake's standard notifications (../shared/facts/connectors/adyen/Webhooks-v1.json), signed
 * as Adyen documents ("Verify HMAC signatures"): HMAC-SHA256 under the hex key over
 * `pspReference:originalReference:merchantAccountCode:merchantReference:value:currency:
 * eventCode:success`, base64, in `additionalData.hmacSignature`. Written here from the
 * documentation with node:crypto, not with Adyen's library the connector verifies with, so that
 * a test of one against the other checks the scheme and not a library against itself.
 */
import { createHmac } from 'node:crypto';
import type { PendingNotice } from './checkout';

/** The documented signing string of a notification item. */
export function signedData(item: Record<string, unknown>): string {
  const amount = item.amount as { value: number; currency: string };
  return [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    amount.value,
    amount.currency,
    item.eventCode,
    item.success,
  ].join(':');
}

/** `item` with its `additionalData.hmacSignature` under `hmacKey` (hex). */
export function signItem(item: Record<string, unknown>, hmacKey: string): Record<string, unknown> {
  const signature = createHmac('sha256', Buffer.from(hmacKey, 'hex'))
    .update(signedData(item), 'utf8')
    .digest('base64');
  return {
    ...item,
    additionalData: { ...((item.additionalData as object) ?? {}), hmacSignature: signature },
  };
}

/** The body Adyen POSTs for one event. */
export function notificationBody(notice: PendingNotice, merchantAccount: string, hmacKey: string): string {
  const item = {
    amount: notice.amount,
    eventCode: notice.eventCode,
    eventDate: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    merchantAccountCode: merchantAccount,
    merchantReference: notice.merchantReference,
    ...(notice.originalReference === undefined ? {} : { originalReference: notice.originalReference }),
    ...(notice.originalPsp === undefined ? {} : { originalPsp: notice.originalPsp }),
    ...(notice.additionalData === undefined ? {} : { additionalData: notice.additionalData }),
    pspReference: notice.pspReference,
    reason: notice.reason ?? '',
    success: notice.success ? 'true' : 'false',
  };
  return JSON.stringify({
    live: 'false',
    notificationItems: [{ NotificationRequestItem: signItem(item, hmacKey) }],
  });
}
