/**
 * The operator CLI's webhook and chargeback commands: the same procedures as the admin API
 * (server/backoffice/webhooks/registration.ts, backoffice/chargebacks/) on the server's store.
 */

import { paymentResponse } from '../../shared/engine/answers/response';
import type { ConnectorSettings, Payment } from '../../shared/engine/core/model';
import type { ChargebackOutcome } from '../../shared/engine/operations/chargebacks';
import {
  bookChargebackOn,
  type ChargebackContext,
  parseChargeback,
  reverseChargebackOn,
} from '../backoffice/chargebacks/chargebacks';
import { contractOf, oppClient } from '../connectors';
import { gatewayProcessors } from '../processors';

/** The simulators' issuer lookup, for the card fields of test-mode payments. */
const ISSUERS = gatewayProcessors(undefined);

import { parseSettlementRun, runSettlement, type SettlementRunInput } from '../backoffice/settlement/runs';
import { deliveryView, webhookView } from '../backoffice/webhooks/registration';
import * as webhooks from '../backoffice/webhooks/webhooks';
import type { Vault } from '../security/vault';
import type { GatewayStore } from '../storage';
import { checkId, type FieldFlags, failure, translated } from './args';
import {
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

/** How the webhook procedures' fields are given on the command line. */
const WEBHOOK_FLAGS: FieldFlags = {
  url: '--url',
  inbox: '--inbox',
  key: '--key',
  types: '--types',
  paymentTypes: '--payment-types',
  encrypted: '--plain',
  status: '--status',
  limit: '--limit',
  webhookId: '--webhook',
};

/** The webhook procedures' context for a command: the CLI's store keeps the webhooks too. */
const webhookContext = (ctx: WebhookCommandContext): webhooks.WebhookContext => ({
  ...backoffice(ctx),
  webhooks: ctx.store,
});

/** Registering's context: the vault seals the key (without the data key, nothing is registered). */
function registrationContext(ctx: WebhookCommandContext): webhooks.RegistrationContext {
  if (ctx.vault === undefined) throw failure('the data key is not available: cannot seal the webhook key');
  return {
    ...webhookContext(ctx),
    vault: ctx.vault,
    ...(ctx.fetch === undefined ? {} : { fetch: ctx.fetch }),
    ...(ctx.egress === undefined ? {} : { egress: ctx.egress }),
  };
}

/** A flag's comma-separated list as the admin API's array. */
const commaList = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

export async function addWebhook(ctx: WebhookCommandContext, input: AddWebhookInput) {
  const view = await translated(
    () =>
      webhooks.addWebhook(registrationContext(ctx), input.merchantId, {
        ...(input.url === undefined ? {} : { url: input.url }),
        ...(input.inbox ? { inbox: true } : {}),
        ...(input.key === undefined ? {} : { key: input.key }),
        ...(input.types === undefined ? {} : { types: commaList(input.types) }),
        ...(input.paymentTypes === undefined ? {} : { paymentTypes: commaList(input.paymentTypes) }),
        ...(input.plain ? { encrypted: false } : {}),
      }),
    WEBHOOK_FLAGS,
  );
  if (ctx.json) printJson(ctx, view);
  else {
    ctx.output.out(view.id);
    ctx.output.err(`key (shown once; the merchant decrypts notifications with it): ${view.key}`);
  }
  return view;
}

export async function listWebhooks(ctx: WebhookCommandContext, input: { readonly merchantId: string }) {
  const list = await translated(() => webhooks.listWebhooks(webhookContext(ctx), input.merchantId));
  printList(
    ctx,
    list,
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
  return list;
}

export async function removeWebhook(
  ctx: WebhookCommandContext,
  input: { readonly merchantId: string; readonly webhookId: string },
) {
  checkId(input.webhookId, 'webhook id');
  const removed = await translated(() =>
    webhooks.removeWebhook(webhookContext(ctx), input.merchantId, input.webhookId),
  );
  if (ctx.json) printJson(ctx, removed);
  else ctx.output.out(input.webhookId);
}

/** The delivery log's flags checked before the store is opened (usage errors name the flags). */
export const checkDeliveryQuery = (query: {
  readonly status?: string;
  readonly webhookId?: string;
  readonly limit?: string;
}): webhooks.DeliveryQuery =>
  translated(() => webhooks.parseDeliveryQuery({ limit: CLI_LOG, ...query }), WEBHOOK_FLAGS);

/** The CLI's default length of the delivery log: a terminal's page. */
const CLI_LOG = '50';

export interface DeliveriesInput {
  readonly merchantId: string;
  readonly query: webhooks.DeliveryQuery;
}

export async function listDeliveries(ctx: WebhookCommandContext, input: DeliveriesInput) {
  const deliveries = await translated(() =>
    webhooks.listDeliveries(webhookContext(ctx), input.merchantId, input.query),
  );
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
  const again = await translated(() =>
    webhooks.redeliver(webhookContext(ctx), input.merchantId, input.deliveryId),
  );
  if (ctx.json) printJson(ctx, again);
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

export type SettleInput = SettlementRunInput;

/** `--date` and `--merchant` checked before the store is opened (usage errors name the flags). */
export const checkSettleInput = (input: { readonly date: string; readonly merchantId?: string }) =>
  translated(() => parseSettlementRun(input), { date: '--date', merchantId: '--merchant' });

/**
 * Settles a past UTC day by hand (the worker does it after 02:00 the next day); idempotent. A
 * connector channel settles from its processor's records, asked with the CLI's HTTP client (the
 * egress policy's): its live reconciliation file for a past day too. What the processor's records
 * and the gateway's day did not agree on is said on stderr (and in --json's `processor`).
 */
export async function settle(ctx: WebhookCommandContext, input: SettleInput) {
  const { dataDir } = ctx;
  if (dataDir === undefined) throw failure('the data folder is not known: cannot write reconciliation files');
  const fetch = ctx.fetch ?? globalThis.fetch;
  const clients = { opp: oppClient({ fetch }), fetch };
  const kind = (connector: ConnectorSettings) => contractOf(clients, connector);
  const accounts = await translated(
    () => runSettlement({ ...backoffice(ctx), store: ctx.store, dataDir, contractOf: kind }, input),
    {
      date: '--date',
      merchantId: '--merchant',
    },
  );
  if (ctx.json) printJson(ctx, accounts);
  else {
    printTable(
      ctx,
      ['ENTITY', 'STATUS', 'SETTLEMENTS', 'FILE'],
      accounts.map((a) => [a.entityId, a.status, String(a.settlements), a.file ?? '']),
    );
    for (const a of accounts) {
      if (a.reason !== undefined) ctx.output.err(`${a.entityId}: ${a.reason}`);
      const p = a.processor;
      if (p === undefined) continue;
      if (p.missingCount > 0)
        ctx.output.err(
          `${a.entityId}: ${p.missingCount} payment(s) the processor did not settle (written FAILED): ${p.missing.join(', ')}`,
        );
      if (p.unknownCount > 0)
        ctx.output.err(
          `${a.entityId}: ${p.unknownCount} settlement(s) of the processor without a payment here (written NOT_MATCHED): ${p.unknown.join(', ')}`,
        );
    }
  }
  return accounts;
}
