/**
 * A merchant's webhooks and their delivery log, as procedures for every face: add (the test
 * notification first: registration.ts), list, remove, the delivery log's query, and redelivery of
 * a finished delivery whose webhook is still there. Each change writes its audit entry
 * (`webhook.create`, `webhook.delete`, `webhook-delivery.redeliver`).
 */
import type { z } from 'zod';
import { deliveryQuery } from '../../../shared/contract/admin-queries';
import type { EgressPolicy } from '../../security/egress';
import type { Vault } from '../../security/vault';
import type { Delivery, Webhook, WebhookStore } from '../../storage/webhooks/model';
import type { InboxWriter } from '../../webhooks/inbox';
import type { BackofficeContext } from '../context';
import { invalid, notFound, parsed, refused } from '../errors';
import { requireMerchant } from '../merchants/merchants';
import { ID } from '../names';
import { deliveryView, registerWebhook, type WebhookInput, webhookView } from './registration';

/** What the webhook procedures need beyond the store: the webhooks' store. */
export type WebhookContext = BackofficeContext & {
  readonly webhooks: WebhookStore & Partial<InboxWriter>;
};

/** What registering needs beyond that: the vault for the key, the way out for the test notification. */
export type RegistrationContext = WebhookContext & {
  readonly vault: Pick<Vault, 'encrypt'>;
  /** The HTTP client of the test notification. */
  readonly fetch?: typeof fetch;
  /** Refuses URLs the gateway would not call (server/security/egress.ts). */
  readonly egress?: Pick<EgressPolicy, 'checkUrl'>;
};

export type WebhookView = ReturnType<typeof webhookView>;
export type DeliveryView = ReturnType<typeof deliveryView>;

/** Registers a webhook once its test notification was accepted; the view with its key, shown once. */
export async function addWebhook(
  ctx: RegistrationContext,
  merchantId: string,
  input: WebhookInput,
): Promise<WebhookView & { readonly key: string }> {
  const outcome = await registerWebhook(
    {
      store: ctx.store,
      webhooks: ctx.webhooks,
      vault: ctx.vault,
      clock: ctx.clock,
      ...(ctx.fetch === undefined ? {} : { fetch: ctx.fetch }),
      ...(ctx.egress === undefined ? {} : { egress: ctx.egress }),
    },
    merchantId,
    input,
  );
  switch (outcome.kind) {
    case 'merchant-not-found':
      throw notFound('merchant', merchantId);
    case 'invalid':
      throw invalid(outcome.errors);
    case 'unreachable':
      throw refused(outcome.description);
    case 'registered':
      await ctx.audit('webhook.create', outcome.webhook.id, merchantId);
      return { ...webhookView(outcome.webhook), key: outcome.key };
  }
}

/** The merchant's webhooks (never their keys). */
export async function listWebhooks(ctx: WebhookContext, merchantId: string): Promise<Webhook[]> {
  await requireMerchant(ctx.store, merchantId);
  return ctx.webhooks.listWebhooks(merchantId);
}

/** Deletes a webhook (its pending deliveries are dead-lettered); `not-found` when there is none. */
export async function removeWebhook(
  ctx: WebhookContext,
  merchantId: string,
  webhookId: string,
): Promise<{ readonly id: string; readonly deleted: true }> {
  await requireMerchant(ctx.store, merchantId);
  const deleted =
    ID.test(webhookId) && (await ctx.webhooks.deleteWebhook(merchantId, webhookId, ctx.clock.now()));
  if (!deleted) throw notFound('webhook', webhookId);
  await ctx.audit('webhook.delete', webhookId, merchantId);
  return { id: webhookId, deleted: true };
}

// the delivery log's query is the contract's (shared/contract/admin-queries.ts): the document's too
export type DeliveryQuery = z.infer<typeof deliveryQuery>;
export const parseDeliveryQuery = (input: unknown): DeliveryQuery => parsed(deliveryQuery, input);

/** The delivery log, newest first; a payment's deliveries are ordered under its original's id. */
export async function listDeliveries(
  ctx: WebhookContext,
  merchantId: string,
  query: DeliveryQuery,
): Promise<Delivery[]> {
  await requireMerchant(ctx.store, merchantId);
  const payment =
    query.paymentId === undefined ? undefined : await ctx.store.getPayment(merchantId, query.paymentId);
  return ctx.webhooks.listDeliveries(merchantId, {
    limit: query.limit,
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.webhookId === undefined ? {} : { webhookId: query.webhookId }),
    ...(query.before === undefined ? {} : { beforeSeq: query.before }),
    ...(query.paymentId === undefined ? {} : { orderKey: payment?.referencedId ?? query.paymentId }),
    ...(query.type === undefined ? {} : { type: query.type }),
  });
}

/** A delivery id as text (a path, a positional): the number, or `not-found`. */
export function deliveryId(text: string): number {
  if (!/^[0-9]{1,15}$/.test(text)) throw notFound('delivery', text);
  return Number(text);
}

/** One delivery, its notification included; `not-found` when the merchant has none of that id. */
export async function getDelivery(
  ctx: WebhookContext,
  merchantId: string,
  seq: number,
): Promise<DeliveryView> {
  const delivery = await ctx.webhooks.getDelivery(merchantId, seq);
  if (delivery === undefined) throw notFound('delivery', String(seq));
  return deliveryView(delivery, true);
}

/**
 * Sends a finished delivery again (delivered, or dead-lettered after its attempts), its retry
 * schedule restarted; a pending one is `refused` (the dispatcher has it), and so is one whose
 * webhook was removed: the dispatcher has nowhere to send it, so it could only die again.
 */
export async function redeliver(ctx: WebhookContext, merchantId: string, seq: number): Promise<DeliveryView> {
  await requireMerchant(ctx.store, merchantId);
  const delivery = await ctx.webhooks.getDelivery(merchantId, seq);
  if (delivery === undefined) throw notFound('delivery', String(seq));
  const { webhookId } = delivery;
  if (webhookId !== undefined) {
    // the store keeps a removed webhook's row (deletedAt set) for its log
    const webhook = await ctx.webhooks.getWebhook(merchantId, webhookId);
    if (webhook === undefined || webhook.deletedAt !== null)
      throw refused(`delivery ${seq} is not sent again: its webhook ${webhookId} was removed`);
  }
  if (!(await ctx.webhooks.redeliver(merchantId, seq, ctx.clock.now())))
    throw refused(`delivery ${seq} is ${delivery.status}: the gateway is still sending it`);
  await ctx.audit('webhook-delivery.redeliver', String(seq), merchantId);
  return deliveryView((await ctx.webhooks.getDelivery(merchantId, seq)) ?? delivery);
}
