/**
 * The ConnectorAttemptStore: what the routing (server/connectors/routing/router.ts) writes once a
 * payment's route is decided, and what the admin API's payment view and the routing itself (which
 * route processed a payment, for its captures, refunds and reversals) read.
 */
import type { ConnectorAttempt } from '../../../shared/engine/core/model';
import type { StoreContext } from '../core/context';
import { ms } from '../core/rows';

export interface ConnectorAttemptStore {
  /** Records a payment's attempts in order; attempts already recorded for it are kept as they were. */
  recordConnectorAttempts(paymentId: string, attempts: readonly ConnectorAttempt[]): Promise<void>;
  /** A payment's attempts in the order they were made; none for a payment that was not routed. */
  connectorAttemptsOf(paymentId: string): Promise<ConnectorAttempt[]>;
}

const OUTCOMES = new Set<string>(['processed', 'refused', 'uncertain', 'skipped']);

export function connectorAttemptStore({ db }: Pick<StoreContext, 'db'>): ConnectorAttemptStore {
  return {
    async recordConnectorAttempts(paymentId, attempts) {
      if (attempts.length === 0) return;
      await db
        .insertInto('connector_attempts')
        .values(
          attempts.map((a, seq) => ({
            payment_id: paymentId,
            seq,
            kind: a.kind,
            route: a.route,
            at: ms(new Date(a.at)),
            outcome: a.outcome,
            code: a.code ?? null,
          })),
        )
        .onConflict((c) => c.columns(['payment_id', 'seq']).doNothing())
        .execute();
    },

    async connectorAttemptsOf(paymentId) {
      const rows = await db
        .selectFrom('connector_attempts')
        .selectAll()
        .where('payment_id', '=', paymentId)
        .orderBy('seq')
        .execute();
      return rows.map((r) => ({
        kind: r.kind,
        route: Number(r.route),
        at: new Date(Number(r.at)).toISOString(),
        outcome: (OUTCOMES.has(r.outcome) ? r.outcome : 'processed') as ConnectorAttempt['outcome'],
        ...(r.code === null ? {} : { code: r.code }),
      }));
    },
  };
}
