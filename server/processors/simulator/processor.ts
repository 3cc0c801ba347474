/**
 * The simulators of test mode INTERNAL as one adapter of the engine's Processor port: the
 * acquirer decides payments, registrations and registration payments from the test data; what
 * references a simulated payment is decided by the workflow alone (the simulated acquirer
 * accepts every capture, refund, reversal and rebill the workflow allows); the BIN table answers
 * the issuer lookup; the access control server runs 3-D Secure; the redirect methods' providers
 * are the simulator pages.
 */
import type { Decision, Processor, ProcessorRequest } from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import { accessControlServer } from './access-control-server';
import { decide } from './acquirer';
import { binInfo } from './bin-table';
import { simulatedRate } from './fx';
import { acceptedLater, redirectMethodOf } from './redirect-methods';

function decided(request: ProcessorRequest, now: Date): Decision {
  const decision = decide(request, now);
  // Field by field, not spread from conditional literals: this runs for every simulated payment.
  const result: Record<string, string> = {};
  if (decision.avsResponse !== undefined) result.avsResponse = decision.avsResponse;
  if (decision.cvvResponse !== undefined) result.cvvResponse = decision.cvvResponse;
  const resultDetails: Record<string, string> = { AcquirerResponse: decision.acquirerResponse };
  if (decision.merchantAdviceCode !== undefined)
    resultDetails.MerchantAdviceCode = decision.merchantAdviceCode;
  resultDetails.clearingInstituteName = 'Simulator';
  return { testMode: 'INTERNAL', code: decision.code, result, resultDetails };
}

const ACCEPTED: Decision = {
  testMode: 'INTERNAL',
  code: ResultCodes.SUCCESS_INTERNAL,
  result: {},
  resultDetails: {},
};

/**
 * An invoice's provider has yet to answer: pending, with no one for the shopper to meet; a forced
 * result code is its refusal when it answers (steps/asynchronous.ts).
 */
const AWAITING_PROVIDER: Decision = {
  testMode: 'INTERNAL',
  code: ResultCodes.PENDING,
  result: {},
  resultDetails: { clearingInstituteName: 'Simulator' },
};

export const simulatorProcessor: Processor = {
  kind: 'simulator',
  testMode: 'INTERNAL',
  pay: async (order) =>
    acceptedLater((order.request as { readonly paymentBrand?: string }).paymentBrand)
      ? AWAITING_PROVIDER
      : decided(order.decide, order.now),
  reference: async () => ACCEPTED,
  register: async (order) => decided(order.decide, order.now),
  payWithRegistration: async (order) => decided(order.decide, order.now),
  binInfo,
  accessControlServer,
  redirectMethod: redirectMethodOf,
  fxRate: simulatedRate,
};
