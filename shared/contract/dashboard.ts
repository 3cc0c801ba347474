/**
 * What only the dashboard reads: the day's figures of its Today page (GET /admin/v1/figures,
 * server/backoffice/figures/: counts, rates, the volume taken per currency hour by hour, and the
 * same by brand; amounts are decimals of the currency's exponent, as strings, never a float), and
 * the circuit breaker's state of a channel's routes (GET /admin/v1/channels/{id}/circuits).
 */
import * as z from 'zod';

const count = z.number().int().min(0);
const counts = {
  payments: count.describe('Initial payments (PA, DB) made.'),
  success: count,
  declined: count.describe('Declined by the bank, its 3-D Secure or AVS, or softly.'),
  rejected: count.describe('Refused for another reason (invalid data, risk, …).'),
  pending: count,
};
const rate = z.number().min(0).max(1).nullable();
const rates = {
  successRate: rate.describe('success / finished (4 decimals); null when none finished.'),
  declineRate: rate.describe('declined / finished (4 decimals); null when none finished.'),
};
const amount = z.string().regex(/^[0-9]+(\.[0-9]+)?$/);

export const dayFigures = z.object({
  day: z
    .string()
    .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/)
    .describe('The day, UTC.'),
  merchantId: z.string().nullable().describe('null: every merchant.'),
  ...counts,
  ...rates,
  volume: z.array(
    z.object({
      currency: z.string(),
      amount: amount.describe('The day’s volume taken.'),
      hours: z.array(amount).length(24).describe('Hour by hour, 00:00 UTC first.'),
    }),
  ),
  hours: z.array(z.object({ hour: z.number().int().min(0).max(23), ...counts })).length(24),
  brands: z.array(
    z.object({
      brand: z.string(),
      ...counts,
      ...rates,
      volume: z.array(z.object({ currency: z.string(), amount })),
    }),
  ),
});
export type DayFigures = z.infer<typeof dayFigures>;

/** One route's circuit (server/connectors/routing/breaker.ts). */
export const routeCircuit = z.object({
  route: z.number().int().min(0).describe('The route\u2019s place in the channel\u2019s routes, from 0.'),
  kind: z.string().describe('Its connector\u2019s kind.'),
  state: z
    .enum(['closed', 'open', 'half-open'])
    .describe('closed: in use; open: skipped for its cool-down after failing; half-open: tried again.'),
});
export type RouteCircuit = z.infer<typeof routeCircuit>;
