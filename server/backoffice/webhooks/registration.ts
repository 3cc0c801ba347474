/**
 * Registering a merchant's webhook (facts §4: URL, types to notify, JSON-wrapped or plain, a
 * decryption key; a test notification is sent and registration fails if nothing answers).
 * One procedure for the admin API and the CLI: check the input, send the test notification with
 * the key it will use, and only then store it, its key sealed by the vault.
 */
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_NOTIFICATION_TYPES,
  NOTIFICATION_TYPES,
  type NotificationType,
} from '../../../shared/engine/answers/notifications';
import { newId } from '../../../shared/engine/core/ids';
import type { Channel } from '../../../shared/engine/core/model';
import type { ChannelStore, Clock, MerchantDirectory } from '../../../shared/engine/core/ports';
import type { EgressPolicy } from '../../security/egress';
import type { Vault } from '../../security/vault';
import type { Delivery, Webhook, WebhookStore } from '../../storage/webhooks/model';
import { DELIVERY_TIMEOUT_MS, sendOnce } from '../../webhooks/dispatcher';
import { encryptNotification, WEBHOOK_KEY } from '../../webhooks/encryption';
import { deliverToInbox, type InboxWriter } from '../../webhooks/inbox';
import { SIGNATURE_HEADER, signatureOf } from '../../webhooks/signature';

export interface WebhookInput {
  readonly url?: unknown;
  /** 64 hex; generated when absent. */
  readonly key?: unknown;
  /** Notification types; all of them when absent. */
  readonly types?: unknown;
  /** Only PAYMENT notifications of these payment types. */
  readonly paymentTypes?: unknown;
  /** true (the default): AES-256-GCM; false: plain JSON. */
  readonly encrypted?: unknown;
  /** true: deliver into the gateway's own inbox instead of a URL (test channels only). */
  readonly inbox?: unknown;
}

export interface InputError {
  readonly name: string;
  readonly value: string | null;
  readonly message: string;
}

export interface RegistrationDeps {
  readonly store: Pick<MerchantDirectory, 'getMerchant'> & Pick<ChannelStore, 'listChannels'>;
  /** The gateway's store: its inbox takes an inbox webhook's test notification. */
  readonly webhooks: Pick<WebhookStore, 'insertWebhook'> & Partial<InboxWriter>;
  readonly vault: Pick<Vault, 'encrypt'>;
  readonly clock: Clock;
  readonly fetch?: typeof fetch;
  /**
   * Refuses URLs the gateway does not call (loopback in production, private, link-local,
   * metadata … unless GATEWAY_CALLBACK_ALLOW lists them); the fetch checks names when connecting.
   */
  readonly egress?: Pick<EgressPolicy, 'checkUrl'>;
  /** How long the test notification may take: the delivery timeout, 30 s. */
  readonly timeoutMs?: number;
}

export type RegistrationOutcome =
  | { readonly kind: 'registered'; readonly webhook: Webhook; readonly key: string }
  | { readonly kind: 'invalid'; readonly errors: readonly InputError[] }
  | { readonly kind: 'merchant-not-found' }
  | { readonly kind: 'unreachable'; readonly description: string };

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const PAYMENT_TYPE = /^[A-Z0-9]{2}$/;

interface Checked {
  /** Empty for an inbox webhook. */
  readonly url: string;
  readonly inbox: boolean;
  readonly key: string;
  readonly types: readonly NotificationType[];
  readonly paymentTypes?: readonly string[];
  readonly encrypted: boolean;
}

const shown = (value: unknown): string | null =>
  typeof value === 'string' ? value : value === undefined ? null : JSON.stringify(value);

/** A list given as an array or as a comma-separated string (the CLI's form). */
function listOf(value: unknown): string[] | undefined {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  if (typeof value === 'string')
    return value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
  return undefined;
}

export function checkInput(
  input: WebhookInput,
  channels: readonly Channel[],
  egress?: Pick<EgressPolicy, 'checkUrl'>,
): Checked | InputError[] {
  const errors: InputError[] = [];
  const fail = (name: string, value: unknown, message: string) =>
    errors.push({ name, value: shown(value), message });

  let url = '';
  const inbox = input.inbox === true || input.inbox === 'true';
  const inboxValid = input.inbox === undefined || inbox || input.inbox === false || input.inbox === 'false';
  if (!inboxValid) fail('inbox', input.inbox, 'must be true (the gateway’s own inbox) or false');
  else if (inbox) {
    if (channels.some((c) => c.mode === 'LIVE'))
      fail('inbox', input.inbox, 'is for test channels only: the merchant has live channels');
    if (input.url !== undefined) fail('url', input.url, 'must be left out: an inbox webhook has no URL');
  } else if (typeof input.url !== 'string' || input.url === '')
    fail('url', input.url, 'is required: the absolute URL notifications are posted to');
  else if (input.url.length > 2048) fail('url', input.url, 'is longer than 2048 characters');
  else {
    let parsed: URL | undefined;
    try {
      parsed = new URL(input.url);
    } catch {
      fail('url', input.url, 'is not an absolute URL');
    }
    if (parsed !== undefined) {
      const live = channels.some((c) => c.mode === 'LIVE');
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
        fail('url', input.url, 'must be http or https');
      else if (parsed.username !== '' || parsed.password !== '')
        fail('url', input.url, 'must not carry credentials: notifications are authenticated by the key');
      else if (parsed.protocol === 'http:' && live && !LOOPBACK.test(parsed.hostname))
        fail('url', input.url, 'must be https: the merchant has live channels');
      else {
        const refused = egress?.checkUrl(parsed);
        if (refused !== undefined) fail('url', input.url, refused);
        else url = parsed.href;
      }
    }
  }

  let key = '';
  if (input.key === undefined) key = randomBytes(32).toString('hex').toUpperCase();
  else if (typeof input.key !== 'string' || !WEBHOOK_KEY.test(input.key))
    fail(
      'key',
      '(hidden)',
      'must be 64 hexadecimal characters (32 bytes), or left out to have one generated',
    );
  else key = input.key.toUpperCase();

  let types: NotificationType[] = [...DEFAULT_NOTIFICATION_TYPES];
  if (input.types !== undefined) {
    const list = listOf(input.types);
    const unknown = list?.filter((t) => !(NOTIFICATION_TYPES as readonly string[]).includes(t));
    if (list === undefined || list.length === 0 || (unknown !== undefined && unknown.length > 0))
      fail('types', input.types, `must list some of ${NOTIFICATION_TYPES.join(', ')}`);
    else types = list as NotificationType[];
  }

  let paymentTypes: string[] | undefined;
  if (input.paymentTypes !== undefined) {
    const list = listOf(input.paymentTypes);
    if (list === undefined || list.length === 0 || !list.every((t) => PAYMENT_TYPE.test(t)))
      fail('paymentTypes', input.paymentTypes, 'must list payment types such as DB, PA, CP, RF, CB');
    else paymentTypes = list;
  }

  let encrypted = true;
  if (input.encrypted !== undefined) {
    if (input.encrypted === true || input.encrypted === 'true') encrypted = true;
    else if (input.encrypted === false || input.encrypted === 'false') encrypted = false;
    else fail('encrypted', input.encrypted, 'must be true (AES-256-GCM, the default) or false (plain JSON)');
  }

  if (errors.length > 0) return errors;
  return { url, inbox, key, types, ...(paymentTypes === undefined ? {} : { paymentTypes }), encrypted };
}

/** The test notification: small, of its own type, encrypted as the real ones will be. */
export function testNotification(webhookId: string, at: Date): string {
  return JSON.stringify({
    // lower case: the family's receivers dispatch on `test` (decisions, "Notifications")
    type: 'test',
    payload: { webhookId, description: 'Test notification: answer 2xx to confirm the webhook' },
    timestamp: at.toISOString(),
  });
}

export async function registerWebhook(
  deps: RegistrationDeps,
  merchantId: string,
  input: WebhookInput,
): Promise<RegistrationOutcome> {
  if ((await deps.store.getMerchant(merchantId)) === undefined) return { kind: 'merchant-not-found' };
  const checked = checkInput(input, await deps.store.listChannels(merchantId), deps.egress);
  if (Array.isArray(checked)) return { kind: 'invalid', errors: checked };

  const now = deps.clock.now();
  const id = newId();
  const json = testNotification(id, now);
  const sealed = checked.encrypted ? encryptNotification(checked.key, json) : undefined;
  const body = sealed?.body ?? json;
  // signed as every later notification will be (signature.ts)
  const signature = { [SIGNATURE_HEADER]: signatureOf(checked.key, body, now) };
  const request = {
    url: checked.url,
    init: {
      method: 'POST',
      body,
      headers:
        sealed === undefined
          ? { 'Content-Type': 'application/json; charset=UTF-8', ...signature }
          : { ...sealed.headers, ...signature },
    },
  };
  const webhook: Webhook = {
    id,
    merchantId,
    url: checked.url,
    secret: deps.vault.encrypt(checked.key),
    encrypted: checked.encrypted,
    types: checked.types,
    ...(checked.paymentTypes === undefined ? {} : { paymentTypes: checked.paymentTypes }),
    createdAt: now,
    deletedAt: null,
    ...(checked.inbox ? { inbox: true } : {}),
  };
  if (checked.inbox) {
    // No URL to try: the test notification goes the way every later one will, into the inbox.
    const receive = deps.webhooks.receiveInInbox;
    if (receive === undefined) throw new Error('this store has no webhook inbox');
    const inbox: InboxWriter = { receiveInInbox: (n) => receive.call(deps.webhooks, n) };
    await deps.webhooks.insertWebhook(webhook);
    const received = await deliverToInbox(inbox, webhook, checked.key, request, now);
    if (!received.ok) throw new Error(`the inbox refused the test notification: ${received.error}`);
    return { kind: 'registered', webhook, key: checked.key };
  }
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const sent = await sendOnce(deps.fetch ?? fetch, request, timeoutMs);
  if (!sent.ok)
    return {
      kind: 'unreachable',
      description: `the webhook was not registered: ${checked.url} did not accept the test notification with a 2xx answer within ${timeoutMs / 1000} s (${sent.error})`,
    };
  await deps.webhooks.insertWebhook(webhook);
  return { kind: 'registered', webhook, key: checked.key };
}

/** A webhook as the admin API and the CLI show it: never its key (shown once, at registration). */
export const webhookView = (w: Webhook) => ({
  id: w.id,
  merchantId: w.merchantId,
  // an inbox webhook has no URL: its notifications are read from the inbox
  url: w.inbox === true ? null : w.url,
  inbox: w.inbox === true,
  encrypted: w.encrypted,
  types: w.types,
  paymentTypes: w.paymentTypes ?? null,
  createdAt: w.createdAt.toISOString(),
});

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** A delivery in the log; its notification only when asked for one delivery. */
export const deliveryView = (d: Delivery, withNotification = false) => ({
  id: d.seq,
  webhookId: d.webhookId ?? null,
  callbackUrl: d.callbackUrl ?? null,
  type: d.notification.type,
  action: d.notification.action ?? null,
  paymentId: typeof d.notification.payload.id === 'string' ? d.notification.payload.id : null,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
  createdAt: d.createdAt.toISOString(),
  lastAttemptAt: iso(d.lastAttemptAt),
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  deliveredAt: iso(d.deliveredAt),
  ...(withNotification ? { notification: d.notification } : {}),
});
