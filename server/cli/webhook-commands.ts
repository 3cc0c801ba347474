/**
 * The operator CLI's webhook and chargeback commands: the same procedures as the admin API
 * (server/backoffice/webhooks/registration.ts, backoffice/chargebacks/) on the server's store.
 */

import { paymentResponse } from '../../shared/engine/answers/response';
import type { Payment } from '../../shared/engine/core/model';
import type { ChargebackOutcome } from '../../shared/engine/operations/chargebacks';
import {
  bookChargebackOn,
  type ChargebackContext,
  parseChargeback,
  reverseChargebackOn,
} from '../backoffice/chargebacks/chargebacks';
import { gatewayProcessors } from '../processors';

/** The simulators' issuer lookup, for the card fields of test-mode payments. */
const ISSUERS = gatewayProcessors(undefined);

import { deliveryView, registerWebhook, webhookView } from '../backoffice/webhooks/registration';
import { settleDay } from '../reporting/settlement-run';
import type { Vault } from '../security/vault';
import type { GatewayStore } from '../storage';
import type { DeliveryStatus } from '../storage/webhooks/model';
import { checkId, failure, translated } from './args';
import {
  audited,
  backoffice,
  type CommandContext,
  clockOf,
  printJson,
  printList,
  printTable,
  requireMerchant,
} from './commands';

/** What these commands need beyond the common context: the whole store, and the vault for keys. */
export interface WebhookCommandContext extends CommandContext {
  readonly store: GatewayStore;
  readonly vault?: Pick<Vault, 'encrypt'>;
  readonly fetch?: typeof fetch;
  /** The gateway's data folder (reconciliation files). */
  readonly dataDir?: string;
  /** What is piped to standard input (a new user's password); undefined from a terminal. */
  readonly readStdin?: () => Promise<string | undefined>;
}

export interface AddWebhookInput {
  readonly merchantId: string;
  /** Absent for an inbox webhook. */
  readonly url?: string;
  /** Into the gateway's own inbox instead of a URL (test channels only). */
  readonly inbox?: boolean;
  readonly key?: string;
  readonly types?: string;
  readonly paymentTypes?: string;
  readonly plain?: boolean;
}

export async function addWebhook(ctx: WebhookCommandContext, input: AddWebhookInput) {
  if (ctx.vault === undefined) throw failure('the data key is not available: cannot seal the webhook key');
  const outcome = await registerWebhook(
    {
      store: ctx.store,
      webhooks: ctx.store,
      vault: ctx.vault,
      clock: clockOf(ctx),
      ...(ctx.fetch === undefined ? {} : { fetch: ctx.fetch }),
      ...(ctx.egress === undefined ? {} : { egress: ctx.egress }),
    },
    input.merchantId,
    {
      ...(input.url === undefined ? {} : { url: input.url }),
      ...(input.inbox ? { inbox: true } : {}),
      ...(input.key === undefined ? {} : { key: input.key }),
      ...(input.types === undefined ? {} : { types: input.types }),
      ...(input.paymentTypes === undefined ? {} : { paymentTypes: input.paymentTypes }),
      ...(input.plain ? { encrypted: false } : {}),
    },
  );
  switch (outcome.kind) {
    case 'merchant-not-found':
      throw failure(`unknown merchant ${input.merchantId}`);
    case 'invalid':
      throw failure(outcome.errors.map((e) => `${e.name} ${e.message}`).join('; '));
    case 'unreachable':
      throw failure(outcome.description);
    case 'registered': {
      await audited(ctx, 'webhook.create', outcome.webhook.id, input.merchantId);
      const view = { ...webhookView(outcome.webhook), key: outcome.key };
      if (ctx.json) printJson(ctx, view);
      else {
        ctx.output.out(outcome.webhook.id);
        ctx.output.err(`key (shown once; the merchant decrypts notifications with it): ${outcome.key}`);
      }
      return outcome.webhook;
    }
  }
}

export async function listWebhooks(ctx: WebhookCommandContext, input: { readonly merchantId: string }) {
  await requireMerchant(ctx.store, input.merchantId);
  const webhooks = await ctx.store.listWebhooks(input.merchantId);
  printList(
    ctx,
    webhooks,
    ['ID', 'ENCRYPTED', 'TYPES', 'PAYMENT TYPES', 'URL'],
    (w) => [
      w.id,
      w.encrypted ? 'yes' : 'no',
      w.types.join(','),
      w.paymentTypes?.join(',') ?? 'all',
      w.inbox === true ? '(inbox)' : w.url,
    ],
    webhookView,
  );
  return webhooks;
}

export async function removeWebhook(
  ctx: WebhookCommandContext,
  input: { readonly merchantId: string; readonly webhookId: string },
) {
  checkId(input.webhookId, 'webhook id');
  await requireMerchant(ctx.store, input.merchantId);
  if (!(await ctx.store.deleteWebhook(input.merchantId, input.webhookId, clockOf(ctx).now())))
    throw failure(`unknown webhook ${input.webhookId}`);
  await audited(ctx, 'webhook.delete', input.webhookId, input.merchantId);
  if (ctx.json) printJson(ctx, { id: input.webhookId, deleted: true });
  else ctx.output.out(input.webhookId);
}

export interface DeliveriesInput {
  readonly merchantId: string;
  readonly status?: DeliveryStatus;
  readonly webhookId?: string;
  readonly limit: number;
}

export async function listDeliveries(ctx: WebhookCommandContext, input: DeliveriesInput) {
  await requireMerchant(ctx.store, input.merchantId);
  const deliveries = await ctx.store.listDeliveries(input.merchantId, {
    limit: input.limit,
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(input.webhookId === undefined ? {} : { webhookId: input.webhookId }),
  });
  const views = deliveries.map((d) => deliveryView(d));
  printList(ctx, views, ['ID', 'STATUS', 'ATTEMPTS', 'TYPE', 'PAYMENT', 'CREATED', 'LAST ERROR'], (v) => [
    String(v.id),
    v.status,
    String(v.attempts),
    v.action === null ? v.type : `${v.type} ${v.action}`,
    v.paymentId ?? '',
    v.createdAt,
    v.lastError ?? '',
  ]);
  return deliveries;
}

export async function redeliver(
  ctx: WebhookCommandContext,
  input: { readonly merchantId: string; readonly deliveryId: number },
) {
  await requireMerchant(ctx.store, input.merchantId);
  const delivery = await ctx.store.getDelivery(input.merchantId, input.deliveryId);
  if (delivery === undefined) throw failure(`unknown delivery ${input.deliveryId}`);
  if (!(await ctx.store.redeliver(input.merchantId, input.deliveryId, clockOf(ctx).now())))
    throw failure(
      `delivery ${input.deliveryId} is ${delivery.status}: only a dead-lettered delivery can be redelivered`,
    );
  await audited(ctx, 'webhook-delivery.redeliver', String(input.deliveryId), input.merchantId);
  if (ctx.json) printJson(ctx, { id: input.deliveryId, status: 'pending' });
  else ctx.output.out(String(input.deliveryId));
}

// ---------------------------------------------------------------------------------------------
// Chargebacks

/**
 * A back-office booking for the merchant: `what` (the booking's original, payment or chargeback)
 * checked by id, the merchant known, the engine's outcome printed (the booked payment) or refused.
 */
async function book(
  ctx: WebhookCommandContext,
  merchantId: string,
  what: string,
  id: string,
  run: (ctx: ChargebackContext) => Promise<ChargebackOutcome>,
): Promise<Payment> {
  checkId(id, `${what} id`);
  await requireMerchant(ctx.store, merchantId);
  const engine = { store: ctx.store, clock: clockOf(ctx), processors: ISSUERS };
  return booked(ctx, await run({ ...backoffice(ctx), engine }), `${what} ${id}`);
}

function booked(ctx: CommandContext, outcome: ChargebackOutcome, what: string): Payment {
  switch (outcome.kind) {
    case 'not-found':
      throw failure(`unknown ${what}`);
    case 'invalid':
      throw failure(outcome.errors.map((e) => `${e.name} ${e.message}`).join('; '));
    case 'refused':
      throw failure(`${outcome.code} ${outcome.description}`);
    case 'booked':
      if (ctx.json) printJson(ctx, paymentResponse(outcome.payment, ISSUERS));
      else ctx.output.out(outcome.payment.id);
      return outcome.payment;
  }
}

export interface ChargebackInput {
  readonly merchantId: string;
  readonly paymentId: string;
  readonly amount?: string;
  readonly chargebackResultCode?: string;
}

export function chargeback(ctx: WebhookCommandContext, input: ChargebackInput): Promise<Payment> {
  const terms = translated(() => parseChargeback(input), {
    amount: '--amount',
    chargebackResultCode: '--code',
  });
  return book(ctx, input.merchantId, 'payment', input.paymentId, (bo) =>
    bookChargebackOn(bo, input.merchantId, input.paymentId, terms),
  );
}

export function chargebackReversal(
  ctx: WebhookCommandContext,
  input: { readonly merchantId: string; readonly chargebackId: string },
): Promise<Payment> {
  return book(ctx, input.merchantId, 'chargeback', input.chargebackId, (bo) =>
    reverseChargebackOn(bo, input.merchantId, input.chargebackId),
  );
}

// ---------------------------------------------------------------------------------------------
// Settlement

export interface SettleInput {
  readonly date: string;
  readonly merchantId?: string;
}

/** Settles a past UTC day by hand (the worker does it after 02:00 the next day); idempotent. */
export async function settle(ctx: WebhookCommandContext, input: SettleInput) {
  if (ctx.dataDir === undefined)
    throw failure('the data folder is not known: cannot write reconciliation files');
  if (input.merchantId !== undefined) await requireMerchant(ctx.store, input.merchantId);
  let accounts: Awaited<ReturnType<typeof settleDay>>;
  try {
    accounts = await settleDay(
      { store: ctx.store, clock: clockOf(ctx), dataDir: ctx.dataDir },
      input.date,
      input.merchantId === undefined ? {} : { merchantId: input.merchantId },
    );
  } catch (error) {
    if (error instanceof RangeError) throw failure(error.message);
    throw error;
  }
  await audited(ctx, 'settlement.run', input.date, input.merchantId ?? null);
  if (ctx.json)
    printJson(
      ctx,
      accounts.map((a) => ({
        merchantId: a.merchantId,
        entityId: a.channelId,
        date: a.date,
        status: a.status,
        settlements: a.settlements.length,
        file: a.file ?? null,
      })),
    );
  else
    printTable(
      ctx,
      ['ENTITY', 'STATUS', 'SETTLEMENTS', 'FILE'],
      accounts.map((a) => [a.channelId, a.status, String(a.settlements.length), a.file ?? '']),
    );
  return accounts;
}
