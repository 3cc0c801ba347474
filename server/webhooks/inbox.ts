/**
 * The gateway's own webhook receiver (test channels only): an inbox webhook's notification is
 * built and encrypted with the webhook's key exactly as for a URL, then, instead of a POST,
 * decrypted here as a merchant's backend would and kept in the inbox (storage/inbox/). What a
 * QA flow reads from the inbox is what the backend would have received.
 */
import type { InboxStore } from '../storage/inbox/store';
import type { Webhook } from '../storage/webhooks/model';
import { decryptNotification } from './encryption';
import { SIGNATURE_HEADER, verifySignature } from './signature';

export type InboxWriter = Pick<InboxStore, 'receiveInInbox'>;

/** The request the dispatcher built (dispatcher.ts Request): its body and headers are what is read. */
interface Sending {
  readonly init: RequestInit;
}

/** Like the dispatcher's Sent: received (a 200 of the inbox), or why not. */
type Received =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly error: string };

/**
 * What was sent, read as a receiver reads it: its signature checked, decrypted with the key when
 * the headers say so.
 */
function opened(request: Sending, key: string | undefined, at: Date): Record<string, unknown> {
  const body = typeof request.init.body === 'string' ? request.init.body : '';
  const headers = new Headers(request.init.headers);
  if (key !== undefined && !verifySignature(key, body, headers.get(SIGNATURE_HEADER), at))
    throw new Error(`no valid ${SIGNATURE_HEADER}`);
  const iv = headers.get('X-Initialization-Vector');
  const tag = headers.get('X-Authentication-Tag');
  if ((iv === null) !== (tag === null)) throw new Error('one of the IV and tag headers is missing');
  let json = body;
  if (iv !== null && tag !== null) {
    if (key === undefined) throw new Error('encrypted, but the webhook has no key');
    json = decryptNotification(key, body, iv, tag);
  }
  const parsed: unknown = JSON.parse(json);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('not a JSON object');
  return parsed as Record<string, unknown>;
}

/** Delivers one request into the inbox; a 2xx-like outcome, or why the inbox could not read it. */
export async function deliverToInbox(
  inbox: InboxWriter,
  webhook: Webhook,
  key: string | undefined,
  request: Sending,
  at: Date,
): Promise<Received> {
  try {
    const { type, action, payload } = opened(request, key, at);
    if (typeof type !== 'string' || payload === null || typeof payload !== 'object')
      throw new Error('no type or payload');
    await inbox.receiveInInbox({
      merchantId: webhook.merchantId,
      webhookId: webhook.id,
      receivedAt: at,
      type,
      ...(typeof action === 'string' ? { action } : {}),
      payload: payload as Record<string, unknown>,
    });
    return { ok: true, status: 200 };
  } catch (error) {
    return {
      ok: false,
      error: `the inbox could not read it: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
