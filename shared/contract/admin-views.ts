/**
 * The admin API's views (docs/admin-api.md): what the back office shows of a merchant, a channel
 * and its connector, a token, a user, a webhook and its deliveries, an audit entry, the test
 * clock, a settlement run, a channel's risk rules. Unlike the family's answers these keep their
 * JSON numbers, booleans and nulls. server/backoffice builds them (merchantView, channelView …);
 * server/openapi/admin-contract.test.ts checks each builder's type against its schema here.
 */
import * as z from 'zod';
import { notification } from './notification';
import { paymentAnswer } from './payment';

const at = () => z.string().describe('ISO 8601, UTC.');
const nullableAt = () => z.string().nullable().describe('ISO 8601, UTC; null when not (yet).');
const id = () => z.string().describe('32 lowercase hex characters.');

export const adminMerchant = z.object({
  id: id(),
  name: z.string(),
  dispatching: z.boolean().describe('Channel dispatching: entityId may be the merchant\u2019s id.'),
  createdAt: at(),
});

/**
 * A channel's connector as shown: its kind and address, never its credentials; an opp connector
 * (another gateway of the family) without a kind, as it was shown before kinds existed.
 */
export const connectorView = z.union([
  z.object({ baseUrl: z.string(), entityId: z.string() }).describe('An opp connector.'),
  z.object({ kind: z.literal('adyen'), baseUrl: z.string(), merchantAccount: z.string() }),
  z.object({ kind: z.literal('stripe'), baseUrl: z.string() }),
]);

/**
 * One of a channel's routes (several connectors in order): its connector as shown and what it
 * takes; every rule given must match, none: any payment.
 */
export const connectorRouteView = z.object({
  connector: connectorView,
  brands: z.array(z.string()).optional().describe('The brands it takes (the catalogue\u2019s names).'),
  countries: z.array(z.string()).optional().describe('The card countries it takes (ISO 3166-1 alpha-2).'),
  currencies: z.array(z.string()).optional().describe('The currencies it takes (ISO 4217).'),
  minAmount: z.number().int().optional().describe('The least amount it takes, in minor units (included).'),
  maxAmount: z.number().int().optional().describe('The greatest amount it takes, in minor units (included).'),
});

export const adminChannel = z.object({
  entityId: id(),
  merchantId: id(),
  name: z.string(),
  mode: z.enum(['TEST', 'LIVE']),
  threeDSecure: z.boolean(),
  registrationsRequireCvv: z.boolean(),
  throttlePerMinute: z.number().int().nullable().describe('null: the gateway default.'),
  connector: connectorView.nullable().describe('null: the simulator (test mode INTERNAL).'),
  routes: z
    .array(connectorRouteView)
    .nullable()
    .describe('Several connectors, tried in order (the first whose rules match); null when none.'),
  brands: z.array(z.string()).nullable().describe('null: every brand the gateway supports.'),
  currencies: z.array(z.string()).nullable().describe('null: any currency.'),
  bankAccount: z
    .object({
      holder: z.string(),
      iban: z.string().describe('Masked.'),
      bic: z.string(),
      bankName: z.string().optional(),
      country: z.string().optional(),
    })
    .nullable()
    .describe('The merchant\u2019s account for bank transfers; null when none.'),
  createdAt: at(),
});

export const accessTokenView = z.object({
  id: z.string(),
  merchantId: id(),
  userId: z.string(),
  environment: z.enum(['test', 'live']),
  channels: z.array(z.string()).describe('Empty: all of the merchant\u2019s channels of its environment.'),
  createdAt: at(),
  lastUsedAt: nullableAt().describe('To the minute; null: never used.'),
  revokedAt: nullableAt(),
});

export const adminRole = z.enum(['operator', 'merchant-admin', 'merchant-viewer']);

export const adminUser = z.object({
  id: z.string(),
  username: z.string(),
  role: adminRole,
  merchantId: z.string().nullable().describe('null: an operator.'),
  totpEnabled: z.boolean(),
  disabled: z.boolean(),
  createdAt: at(),
});

export const webhookView = z.object({
  id: z.string(),
  merchantId: id(),
  url: z.string().nullable().describe('null: an inbox webhook.'),
  inbox: z.boolean(),
  encrypted: z.boolean(),
  types: z.array(z.string()),
  paymentTypes: z.array(z.string()).nullable(),
  createdAt: at(),
});

export const deliveryView = z.object({
  id: z.number().int().describe('The delivery\u2019s sequence number.'),
  webhookId: z.string().nullable(),
  callbackUrl: z.string().nullable().describe('A checkout\u2019s notificationUrl, when it had one.'),
  type: z.string(),
  action: z.string().nullable(),
  paymentId: z.string().nullable(),
  status: z.enum(['pending', 'delivered', 'dead']),
  attempts: z.number().int(),
  nextAttemptAt: nullableAt(),
  createdAt: at(),
  lastAttemptAt: nullableAt(),
  lastStatus: z.number().int().nullable().describe('The HTTP status the endpoint last answered.'),
  lastError: z.string().nullable(),
  deliveredAt: nullableAt(),
  notification: notification.optional().describe('One delivery read alone: what it carries.'),
});

export const auditEntry = z.object({
  id: z.number().int(),
  at: at(),
  actor: z.string(),
  actorId: z.string().nullable(),
  role: z.string(),
  action: z.string().describe('merchant.create, channel.update, payment.CB \u2026'),
  target: z.string().nullable(),
  merchantId: z.string().nullable(),
  address: z.string().nullable(),
});

export const clockView = z.object({
  now: at(),
  testClock: z.literal(true),
  frozen: z.boolean().describe('The clock stands still between moves.'),
});

export const settledAccount = z.object({
  merchantId: id(),
  entityId: id(),
  date: z.string().describe('yyyy-MM-dd'),
  status: z
    .enum(['settled', 'already-settled', 'not-settled'])
    .describe('not-settled: its processor’s records of the day could not be read now (`reason`).'),
  settlements: z.number().int().describe('One per settlement currency.'),
  file: z.string().nullable().describe('The reconciliation file, when the day had records.'),
  reason: z.string().optional().describe('Why the day is not settled.'),
  processor: z
    .object({
      missing: z
        .array(z.string())
        .describe('The gateway’s payments the processor did not settle (FAILED in the file).'),
      missingCount: z.number().int(),
      unknown: z
        .array(z.string())
        .describe('The processor’s ids of what it settled that the gateway lacks (NOT_MATCHED in the file).'),
      unknownCount: z.number().int(),
    })
    .optional()
    .describe(
      'A channel settled from its processor’s records: what did not agree (the first 100 ids of each).',
    ),
});

export const settlementFile = z.object({
  date: z.string(),
  entityId: id(),
  records: z.number().int(),
  createdAt: at(),
});

/** What the dashboard shows of a payment's result (the payments list's `status` filter too). */
export const adminPaymentStatus = z.enum(['success', 'pending', 'declined', 'rejected']);

/** A row of the payments list: the payment's ids, money, result and what it means for the list. */
export const paymentRow = z.object({
  id: z.string(),
  paymentType: z.string(),
  paymentBrand: z.string().nullable(),
  amount: z.string().nullable().describe('Decimal, as the payment was made; null when it had none.'),
  currency: z.string().nullable(),
  result: z.object({ code: z.string(), description: z.string() }),
  status: adminPaymentStatus,
  merchantTransactionId: z.string().nullable(),
  shortId: z.string(),
  last4: z.string().nullable(),
  createdAt: at(),
  entityId: z.string(),
});

/**
 * What remains of a payment for the back office's money actions, in its currency as decimal
 * strings (the workflow's own verdict on a request for "the rest"); null where the action does
 * not apply, all null when the payment has nothing left to act on.
 */
export const remaining = z.object({
  currency: z.string().nullable(),
  capturable: z.string().nullable().describe('A PA: what a capture may still take.'),
  refundable: z.string().nullable().describe('A DB, CP, RB, RC: what a refund may still return.'),
  reversible: z.string().nullable().describe('A PA or DB not yet followed: what a reversal cancels.'),
  chargeable: z.string().nullable().describe('A DB, CP, RB: what a chargeback may still take back.'),
});

/** A payment's story: its row and answer, its family, its deliveries and its checkout. */
export const paymentStory = z.object({
  payment: paymentRow.extend({
    referencedId: z.string().nullable(),
    remaining,
    response: paymentAnswer.omit({ result: true, ndc: true }),
  }),
  related: z.array(paymentRow),
  threeDSecure: paymentAnswer.shape.threeDSecure.unwrap().nullable(),
  risk: paymentAnswer.shape.risk.unwrap().nullable(),
  deliveries: z.array(deliveryView),
  attempts: z
    .array(
      z.object({
        kind: z.string().describe('The connector’s kind: opp, adyen, stripe.'),
        route: z.number().int().describe('Its place in the channel’s routes when tried (0 first).'),
        at: at(),
        outcome: z
          .enum(['processed', 'refused', 'uncertain', 'skipped'])
          .describe(
            'processed: the processor answered; refused: nothing reached it (the next was tried); uncertain: it may have processed it; skipped: its circuit was open.',
          ),
        code: z.string().nullable().describe('The family’s code it answered; null when not tried.'),
      }),
    )
    .describe('The connectors the channel’s routing tried for the payment, in order; empty when not routed.'),
  checkout: z
    .object({
      id: z.string(),
      kind: z.enum(['payment', 'registration']),
      createdAt: at(),
      expiresAt: at(),
      completedAt: nullableAt(),
      resultCode: z.string().nullable(),
    })
    .nullable(),
});

export const scheduleRow = z.object({
  id: z.string(),
  state: z.string(),
  paymentType: z.string(),
  amount: z.string(),
  currency: z.string(),
  job: z.record(z.string(), z.unknown()).describe('The job as sent.'),
  nextFireAt: nullableAt(),
  registrationId: z.string(),
  entityId: z.string(),
});

export const inboxNotification = z.object({
  seq: z.number().int(),
  webhookId: z.string(),
  receivedAt: at(),
  type: z.string(),
  action: z.string().optional(),
  payload: z.record(z.string(), z.unknown()),
});

/** Where a channel's processor sends its notifications, shown once after its connector is set. */
export const connectorSetup = z.object({
  notificationPath: z.string().describe('/connectors/{kind}/notifications/{entityId}'),
  notificationUrl: z
    .string()
    .optional()
    .describe('The whole address, when the channel is of the environment this address serves.'),
  signature: z.string().describe('How the processor signs them, and which credential verifies it.'),
});

/** "Check the connection": one harmless call to the channel's processor with its credentials. */
export const connectorCheck = z.object({
  kind: z.enum(['opp', 'adyen', 'stripe']),
  baseUrl: z.string(),
  reachable: z.boolean().describe('The processor answered (with anything).'),
  credentials: z
    .enum(['accepted', 'refused', 'unknown'])
    .describe('unknown: it did not answer, or said something else.'),
  latencyMs: z.number().describe('Milliseconds from the request to the answer (or the failure).'),
  status: z.number().int().optional().describe('The HTTP status answered, when one was.'),
  detail: z.string().describe('What was found, in words.'),
});

/** A channel's risk rules as stored (shared/risk/rules.ts, RiskRules); null: none. */
export const riskRules = z
  .record(z.string(), z.unknown())
  .nullable()
  .describe(
    'blockedBins, blockedCardCountries, amountLimits, velocity, scoring, ruleSets \u2026 (docs/admin-api.md).',
  );

export type AdminMerchant = z.infer<typeof adminMerchant>;
export type ConnectorView = z.infer<typeof connectorView>;
export type ConnectorRouteView = z.infer<typeof connectorRouteView>;
export type AdminChannel = z.infer<typeof adminChannel>;
export type Remaining = z.infer<typeof remaining>;
export type ConnectorSetupView = z.infer<typeof connectorSetup>;
export type ConnectorCheck = z.infer<typeof connectorCheck>;
export type AccessTokenView = z.infer<typeof accessTokenView>;
export type AdminRole = z.infer<typeof adminRole>;
export type AdminUser = z.infer<typeof adminUser>;
export type WebhookView = z.infer<typeof webhookView>;
export type DeliveryView = z.infer<typeof deliveryView>;
export type AuditEntryView = z.infer<typeof auditEntry>;
export type ClockView = z.infer<typeof clockView>;
export type SettledAccount = z.infer<typeof settledAccount>;
export type SettlementFile = z.infer<typeof settlementFile>;
export type PaymentRow = z.infer<typeof paymentRow>;
export type PaymentStory = z.infer<typeof paymentStory>;
export type ScheduleRow = z.infer<typeof scheduleRow>;
export type InboxNotification = z.infer<typeof inboxNotification>;
