/**
 * The admin API's answers on the wire, named for the OpenAPI document: a view (admin-views.ts) or
 * a list of them under its plural, then the envelope's result and stamps. A route names its
 * answer by the component (`schema: 'AdminMerchant'` in server/openapi/routes/admin*.ts).
 */
import * as z from 'zod';
import * as view from './admin-views';
import { dayFigures, routeCircuit } from './dashboard';
import { result, stamps } from './envelope';
import { payment } from './payment';
import * as records from './records';
import { named } from './registry';

/** An admin answer: its fields, then result and the stamps. */
const wire = <Shape extends z.ZodRawShape>(id: string, fields: Shape, description: string) =>
  named(id, z.object({ ...fields, result, ...stamps }).describe(description));

const nextPage = z.string().nullable().describe('The cursor of the next page; null on the last.');

const clockMove = view.clockView.extend({
  ran: z
    .record(z.string(), z.number().int())
    .describe(
      'What the move ran: checkoutExpiry, pendingPayments, shopperResultUrl, schedules, webhooks, settlement.',
    ),
});

/** Every admin answer the document names, by its component name. */
export const ADMIN_ANSWERS = {
  AdminMerchant: wire('AdminMerchant', view.adminMerchant.shape, 'A merchant.'),
  AdminMerchantList: wire('AdminMerchantList', { merchants: z.array(view.adminMerchant) }, 'Merchants.'),
  AdminChannel: wire(
    'AdminChannel',
    { ...view.adminChannel.shape, connectorSetup: view.connectorSetup.optional() },
    'A channel and its settings; `connectorSetup` once, in the answer of the change that set its connector.',
  ),
  AdminConnectorCheck: wire(
    'AdminConnectorCheck',
    { connectorCheck: view.connectorCheck },
    'What one harmless call to the channel\u2019s processor found.',
  ),
  AdminChannelList: wire(
    'AdminChannelList',
    { channels: z.array(view.adminChannel) },
    'A merchant\u2019s channels.',
  ),
  AdminToken: wire('AdminToken', view.accessTokenView.shape, 'An access token (never its secret).'),
  AdminTokenCreated: wire(
    'AdminTokenCreated',
    { ...view.accessTokenView.shape, accessToken: z.string().describe('The Bearer token, shown once.') },
    'A new access token and its secret.',
  ),
  AdminTokenList: wire(
    'AdminTokenList',
    { tokens: z.array(view.accessTokenView) },
    'A merchant\u2019s tokens.',
  ),
  AdminUserAnswer: wire(
    'AdminUserAnswer',
    { user: view.adminUser, password: z.string().optional().describe('A generated password, shown once.') },
    'A user.',
  ),
  AdminUserList: wire('AdminUserList', { users: z.array(view.adminUser) }, 'Users.'),
  AdminSession: wire(
    'AdminSession',
    {
      user: view.adminUser,
      csrfToken: z.string().describe('Sent as X-CSRF-Token on every state-changing request.'),
      totpSetupRequired: z.literal(true).optional().describe('The user must set up a second factor first.'),
    },
    'A signed-in user\u2019s session.',
  ),
  AdminTotpSetup: wire(
    'AdminTotpSetup',
    { secret: z.string(), otpauthUrl: z.string() },
    'A new TOTP secret, pending until confirmed.',
  ),
  AdminWebhook: wire('AdminWebhook', view.webhookView.shape, 'A webhook (never its key).'),
  AdminWebhookRegistered: wire(
    'AdminWebhookRegistered',
    {
      ...view.webhookView.shape,
      key: z.string().describe('The AES-256 key, 64 hex characters, shown once.'),
    },
    'A new webhook and its key.',
  ),
  AdminWebhookList: wire(
    'AdminWebhookList',
    { webhooks: z.array(view.webhookView) },
    'A merchant\u2019s webhooks.',
  ),
  AdminDelivery: wire('AdminDelivery', view.deliveryView.shape, 'A webhook delivery.'),
  AdminDeliveryList: wire(
    'AdminDeliveryList',
    {
      deliveries: z.array(view.deliveryView),
      next: z.string().nullable().describe('`before` of the next (older) page; null on the last.'),
    },
    'Deliveries, newest first.',
  ),
  AdminAuditPage: wire(
    'AdminAuditPage',
    { entries: z.array(view.auditEntry), next: nextPage },
    'Audit entries.',
  ),
  AdminPaymentList: wire(
    'AdminPaymentList',
    { payments: z.array(view.paymentRow), next: nextPage },
    'Payments.',
  ),
  AdminPaymentStory: wire('AdminPaymentStory', view.paymentStory.shape, 'A payment\u2019s story.'),
  AdminSettlementFiles: wire(
    'AdminSettlementFiles',
    { files: z.array(view.settlementFile) },
    'The reconciliation files.',
  ),
  AdminSettlementRun: wire(
    'AdminSettlementRun',
    { accounts: z.array(view.settledAccount) },
    'A day settled.',
  ),
  AdminRiskRules: wire('AdminRiskRules', { rules: view.riskRules }, 'A channel\u2019s risk rules.'),
  AdminScheduleList: wire(
    'AdminScheduleList',
    { schedules: z.array(view.scheduleRow) },
    'Schedules, newest first.',
  ),
  AdminDeschedule: wire('AdminDeschedule', { id: z.string(), state: z.string() }, 'A schedule, descheduled.'),
  AdminInbox: wire('AdminInbox', { notifications: z.array(view.inboxNotification) }, 'The inbox.'),
  AdminInboxCleared: wire('AdminInboxCleared', { cleared: z.number().int() }, 'How many were cleared.'),
  AdminClock: wire('AdminClock', view.clockView.shape, 'The test clock.'),
  AdminEnvironment: wire(
    'AdminEnvironment',
    {
      environment: z.enum(['test', 'live']).describe('Which money this address moves.'),
      clock: view.clockView.nullable().describe('The test clock, when the gateway runs on one.'),
    },
    'The dashboard\u2019s banner: the environment and the gateway\u2019s clock.',
  ),
  AdminFigures: wire('AdminFigures', { figures: dayFigures }, 'The day\u2019s figures of the home page.'),
  AdminCircuits: wire(
    'AdminCircuits',
    { circuits: z.array(routeCircuit) },
    'The circuit breaker\u2019s state of each of a channel\u2019s routes, in order.',
  ),
  AdminClockMove: wire('AdminClockMove', clockMove.shape, 'The test clock, moved, and what ran.'),
  AdminRegistrationList: wire(
    'AdminRegistrationList',
    { registrations: z.array(records.registrationRowView), next: nextPage },
    'A merchant\u2019s saved cards and other registrations, newest first (deleted ones too).',
  ),
  AdminRegistration: wire('AdminRegistration', records.registrationRowView.shape, 'A registration.'),
  AdminRegistrationMoves: wire(
    'AdminRegistrationMoves',
    {
      moved: z.array(
        z.object({
          id: z.string(),
          route: z.int().describe('The route now holding it, by its place in the channel’s routes.'),
          kind: z.string().describe('That route’s connector kind.'),
        }),
      ),
      refused: z.array(
        z.object({ id: z.string(), reason: z.string().describe('Why this one cannot move there.') }),
      ),
    },
    'Registrations moved to another route, and those that cannot move (with `all`).',
  ),
  AdminSearch: wire('AdminSearch', { results: z.array(records.searchHit) }, 'What the search found.'),
  AdminApiRequests: wire(
    'AdminApiRequests',
    { requests: z.array(records.apiRequestView) },
    'A merchant\u2019s recent API requests, newest first.',
  ),
  AdminInquiryAgain: wire(
    'AdminInquiryAgain',
    {
      kind: z
        .enum(['payment', 'registration'])
        .describe(
          'What the id names: an uncertain payment, or an uncertain registration, asked the same way.',
        ),
      paymentId: z.string(),
      dueAt: z.string().describe('When the pending-payments worker asks the processor: now.'),
      wasStopped: z.boolean().describe('Whether the gateway had stopped asking by itself (after a week).'),
    },
    'An uncertain payment or registration, to be asked about again.',
  ),
  /** A back-office transaction (capture, refund, reversal, chargeback) answers as a payment. */
  Payment: payment,
} as const;

export type AdminAnswerName = keyof typeof ADMIN_ANSWERS;
export type AdminAnswer<Name extends AdminAnswerName> = z.infer<(typeof ADMIN_ANSWERS)[Name]>;
