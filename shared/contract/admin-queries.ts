/**
 * The admin API's query strings, written once: the back office checks each parameter with these
 * schemas (server/backoffice: the payments list and its CSV, the delivery log, the audit log) and
 * the OpenAPI document derives the routes' query parameters from them (json-schema.ts,
 * `queryParameters`), so the rule and what the document says of it cannot drift. Every value is
 * text, as a query string sends it; a number's range is checked on the text and said in words.
 * Messages are the wire's (`parameterErrors[].message`). Browser-safe zod only: no server import.
 */
import * as z from 'zod';
import { adminPaymentStatus } from './admin-views';

const ID = /^[0-9a-f]{32}$/;

/** A page size as text: 1 to `max`, one message for every way of getting it wrong. */
const pageSize = (max: number) => {
  const message = `must be 1 to ${max}`;
  return z
    .string()
    .regex(/^[0-9]{1,3}$/, { error: message })
    .refine((text) => Number(text) >= 1 && Number(text) <= max, { error: message });
};

// ---- the payments list (and its CSV export) --------------------------------------------------

export const PAYMENT_STATUSES = adminPaymentStatus.options;
export const MAX_PAGE = 100;
export const DEFAULT_PAGE = '25';

/** A date (`yyyy-MM-dd`, UTC) or an ISO 8601 moment with its zone; the back office then parses it. */
const MOMENT = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9:.]+(Z|[+-][0-9]{2}:?[0-9]{2}))?$/;
const moment = (words: string) =>
  z
    .string()
    .regex(MOMENT, { error: 'must be a date (yyyy-MM-dd) or an ISO 8601 date and time' })
    .describe(words);

/** The list's filters, each optional; the CSV export takes these alone. */
export const paymentListFilters = z.object({
  id: z
    .string()
    .regex(ID, { error: 'must be a payment id (32 lowercase hex characters)' })
    .describe('A payment id.')
    .optional(),
  merchantTransactionId: z
    .string()
    .min(1, { error: 'must be 1 to 255 characters' })
    .max(255, { error: 'must be 1 to 255 characters' })
    .optional(),
  shortId: z
    .string()
    .regex(/^[0-9.]{1,32}$/, { error: 'must be a short id such as 1234.5678.9012' })
    .optional(),
  from: moment('yyyy-MM-dd (UTC) or an ISO 8601 date-time.').optional(),
  to: moment('yyyy-MM-dd (that day included) or an ISO 8601 date-time (exclusive).').optional(),
  status: z.enum(PAYMENT_STATUSES, { error: `must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
  brand: z
    .string()
    .regex(/^[A-Z0-9_]{1,32}$/, { error: 'must be a payment brand such as VISA' })
    .optional(),
  amount: z
    .string()
    .regex(/^[0-9]{1,10}(\.[0-9]{1,4})?$/, { error: 'must be a decimal amount such as 10.00' })
    .describe('A decimal amount, exact per currency.')
    .optional(),
});

/** The list's page: its filters, its size and where it starts. */
export const paymentListQuery = paymentListFilters.extend({
  limit: pageSize(MAX_PAGE).default(DEFAULT_PAGE).describe(`1 to ${MAX_PAGE}.`),
  // the cursor's shape is the back office's (it decodes it): opaque to the client
  after: z.string().describe('The `next` of the previous page.').optional(),
});

// ---- the delivery log --------------------------------------------------------------------------

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;
export const MAX_DELIVERIES = 500;
/** The admin API's page when no `limit` is given (the CLI gives its own). */
export const DEFAULT_DELIVERIES = '100';

/** The delivery log's query, as text (query strings, flags); each face gives its default limit. */
export const deliveryQuery = z.object({
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(', ')}` }).optional(),
  limit: pageSize(MAX_DELIVERIES)
    .transform(Number)
    .describe(`1 to ${MAX_DELIVERIES} (default ${DEFAULT_DELIVERIES}).`),
  before: z
    .string()
    .regex(/^[0-9]{1,15}$/, { error: 'must be a delivery id' })
    .transform(Number)
    .describe('The last id seen.')
    .optional(),
  webhookId: z.string().regex(ID, { error: 'must be a webhook id' }).optional(),
  paymentId: z
    .string()
    .regex(ID, { error: 'must be a payment id' })
    .describe("A payment's deliveries (its original's: a capture's are its PA's).")
    .optional(),
  type: z
    .string()
    .regex(/^(?:[A-Z_]{1,40}|test)$/, { error: 'must be a notification type such as PAYMENT' })
    .describe('A notification type (PAYMENT …), or test.')
    .optional(),
});

// ---- the audit log -----------------------------------------------------------------------------

export const MAX_AUDIT = 500;
export const DEFAULT_AUDIT = '100';
/** An ISO time with its zone, or a day (taken as UTC midnight). */
const INSTANT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
const entryId = (words: string) =>
  z
    .string()
    .regex(/^[0-9]{1,15}$/, { error: 'must be an entry id' })
    .describe(words)
    .optional();
const instant = (words: string) =>
  z
    .string()
    .regex(INSTANT, { error: 'must be an ISO time such as 2026-12-01T09:00:00Z or a day' })
    .describe(words)
    .optional();
// trimmed by the back office first; an empty one is no filter
const auditText = (words: string) =>
  z.string().max(200, { error: 'must be at most 200 characters' }).describe(words).optional();

/** The audit log's query: newest first before `before`, or oldest first after `after`. */
export const auditQuery = z.object({
  actor: auditText('Who acted (exact).'),
  action: auditText('What they did (exact), as the entries name it.'),
  from: instant('From this time (or day, UTC) on.'),
  to: instant('Before this time (or day, UTC).'),
  before: entryId('Newest first, older than this entry: the `next` of the previous page.'),
  after: entryId('Oldest first, after this entry (following the log); not with `before`.'),
  limit: pageSize(MAX_AUDIT).default(DEFAULT_AUDIT).describe(`1 to ${MAX_AUDIT}.`),
});
