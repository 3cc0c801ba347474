/**
 * Registering a merchant's webhook (facts §4: URL, types to notify, JSON-wrapped or plain, a
 * decryption key; a test notification is sent and registration fails if nothing answers).
 * One procedure for the admin API and the CLI: check the input (the contract's `webhookInput`,
 * with the merchant's channels and the egress policy), send the test notification with the key it
 * will use, and only then store it, its key sealed by the vault.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { webhookInput } from '../../../shared/contract/admin-inputs';
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
import { checked, type FieldError } from '../errors';

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

export type InputError = FieldError;

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

const URL_REQUIRED = 'is required: the absolute URL notifications are posted to';
const KEY = 'must be 64 hexadecimal characters (32 bytes), or left out to have one generated';

/** Where notifications are posted: an absolute http(s) URL without credentials, https for a live merchant. */
const notificationUrl = (live: boolean, egress: Pick<EgressPolicy, 'checkUrl'> | undefined) =>
  z.unknown().transform((value, ctx): string => {
    const refuse = (message: string): never => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER as never;
    };
    if (typeof value !== 'string' || value === '') return refuse(URL_REQUIRED);
    if (value.length > 2048) return refuse('is longer than 2048 characters');
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return refuse('is not an absolute URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('must be http or https');
    if (url.username !== '' || url.password !== '')
      return refuse('must not carry credentials: notifications are authenticated by the key');
    if (url.protocol === 'http:' && live && !LOOPBACK.test(url.hostname))
      return refuse('must be https: the merchant has live channels');
    const refused = egress?.checkUrl(url);
    return refused === undefined ? url.href : refuse(refused);
  });

/** A list of known items, as an array; any fault of it said of the list. */
const listOf = (known: (item: string) => boolean, message: string) =>
  z
    .array(z.unknown(), { error: message })
    .min(1, message)
    .refine((items) => items.every((item) => typeof item === 'string' && known(item)), message)
    .transform((items) => items as string[]);

/**
 * The contract's webhook body (`webhookInput`) checked for a merchant with `live` channels or
 * not: every field's fault at once, named by its field.
 */
function webhookBody(live: boolean, egress: Pick<EgressPolicy, 'checkUrl'> | undefined) {
  return webhookInput
    .extend({
      inbox: z
        .boolean({ error: 'must be true (the gateway’s own inbox) or false' })
        .refine((inbox) => !(inbox && live), 'is for test channels only: the merchant has live channels')
        .optional(),
      url: notificationUrl(live, egress).optional(),
      key: z
        .string({ error: KEY })
        .regex(WEBHOOK_KEY, KEY)
        .transform((key) => key.toUpperCase())
        .optional(),
      types: listOf(
        (t) => (NOTIFICATION_TYPES as readonly string[]).includes(t),
        `must list some of ${NOTIFICATION_TYPES.join(', ')}`,
      ).optional(),
      paymentTypes: listOf(
        (t) => PAYMENT_TYPE.test(t),
        'must list payment types such as DB, PA, CP, RF, CB',
      ).optional(),
      encrypted: z
        .boolean({ error: 'must be true (AES-256-GCM, the default) or false (plain JSON)' })
        .optional(),
    })
    .superRefine(
      // the URL against the inbox, said with the other fields' faults (the body as given)
      (body: { readonly inbox?: unknown; readonly url?: unknown }, ctx) => {
        if (body.inbox === true && body.url !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['url'],
            message: 'must be left out: an inbox webhook has no URL',
          });
        else if ((body.inbox === undefined || body.inbox === false) && body.url === undefined)
          ctx.addIssue({ code: 'custom', path: ['url'], message: URL_REQUIRED });
      },
      { when: () => true },
    );
}

export function checkInput(
  input: WebhookInput,
  channels: readonly Channel[],
  egress?: Pick<EgressPolicy, 'checkUrl'>,
): Checked | InputError[] {
  const verdict = checked(
    webhookBody(
      channels.some((c) => c.mode === 'LIVE'),
      egress,
    ),
    input,
  );
  // the key is never echoed, even a wrong one
  if (!verdict.ok) return verdict.errors.map((e) => (e.name === 'key' ? { ...e, value: '(hidden)' } : e));
  const body = verdict.value;
  const inbox = body.inbox === true;
  return {
    url: inbox ? '' : (body.url ?? ''),
    inbox,
    key: body.key ?? randomBytes(32).toString('hex').toUpperCase(),
    types: (body.types as NotificationType[] | undefined) ?? [...DEFAULT_NOTIFICATION_TYPES],
    ...(body.paymentTypes === undefined ? {} : { paymentTypes: body.paymentTypes }),
    encrypted: body.encrypted ?? true,
  };
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
