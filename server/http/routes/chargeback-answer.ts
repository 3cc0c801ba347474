/**
 * How a booked (or refused) chargeback is answered, the same wherever it is raised: the admin
 * API's back office (routes/admin/back-office.ts) and the simulated acquirer
 * (routes/simulators/acquirer.ts). Booked is 200 whatever the chargeback's own result
 * code, with the chargeback as GET /v1/payments/{id} shows it.
 */
import type { Context } from 'hono';
import { paymentResponse } from '../../../shared/engine/answers/response';
import type { ChargebackOutcome } from '../../../shared/engine/operations/chargebacks';
import { ResultCodes } from '../../../shared/result-codes';
import type { RouteDeps } from '../context';
import { invalid } from '../middleware/envelope';

export function answerChargeback(
  deps: Pick<RouteDeps, 'env' | 'processors'>,
  c: Context,
  outcome: ChargebackOutcome,
): Response {
  const { env } = deps;
  switch (outcome.kind) {
    case 'not-found':
      return env.send(c, 404, { code: ResultCodes.ENTITY_NOT_FOUND, description: 'payment not found' });
    case 'invalid':
      return invalid(env, c, 400, [...outcome.errors]);
    case 'refused':
      return env.send(c, 400, { code: outcome.code, description: outcome.description });
    case 'booked': {
      const { result, ndc, ...payment } = paymentResponse(outcome.payment, deps.processors);
      return env.send(c, 200, result, payment, ndc);
    }
  }
}
