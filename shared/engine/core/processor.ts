/**
 * Who decides a payment: the resolver of the Processor port (ports.ts). Test channels run the
 * simulators (INTERNAL, the default) or the channel's connector (EXTERNAL); live channels have no
 * test mode and only ever reach their connector. Without a connector the request is refused with
 * 600.200.201, never simulated (decisions: Payment methods and environments).
 */
import { ResultCodes } from '../../result-codes';
import type { Channel, Payment, Registration, TestMode } from './model';
import type { Decision, Processor, Processors } from './ports';

/** Test channels run INTERNAL unless EXTERNAL is asked for; live channels have no test mode. */
export const testModeOf = (channel: Channel, requested: string | undefined): TestMode | undefined =>
  channel.mode === 'TEST' ? ((requested as TestMode | undefined) ?? 'INTERNAL') : undefined;

/** The success code of a mode (decisions, "Outcomes"): 000.100.110 INTERNAL, 000.100.112 EXTERNAL, 000.000.000 live. */
export function successCodeOf(testMode: TestMode | undefined): string {
  if (testMode === 'INTERNAL') return ResultCodes.SUCCESS_INTERNAL;
  return testMode === 'EXTERNAL' ? ResultCodes.SUCCESS_EXTERNAL : ResultCodes.SUCCESS_LIVE;
}

/** The processor of a new payment, registration or schedule on `channel`. */
export function processorFor(
  processors: Processors,
  channel: Channel,
  requestedTestMode: string | undefined,
): Processor {
  return processorOf(processors, channel, testModeOf(channel, requestedTestMode));
}

/** The processor that made `payment`, for what references it (CP, RF, RV, RB). */
export function processorOfPayment(processors: Processors, channel: Channel, payment: Payment): Processor {
  return processorOf(processors, channel, payment.testMode);
}

function processorOf(processors: Processors, channel: Channel, testMode: TestMode | undefined): Processor {
  if (testMode === 'INTERNAL') return processors.simulator;
  return processors.connector(channel, testMode === 'EXTERNAL' ? 'EXTERNAL' : 'LIVE') ?? refusing(testMode);
}

const refusals = new Map<TestMode | undefined, Processor>();

/** No connector for this channel: everything is refused with 600.200.201. */
function refusing(testMode: TestMode | undefined): Processor {
  let processor = refusals.get(testMode);
  if (processor === undefined) {
    const refused: Decision = {
      ...(testMode === undefined ? {} : { testMode }),
      code: ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD,
      result: {},
      resultDetails: {},
    };
    const refuse = async () => refused;
    processor = {
      kind: 'none',
      testMode,
      pay: refuse,
      reference: refuse,
      register: refuse,
      payWithRegistration: refuse,
    };
    refusals.set(testMode, processor);
  }
  return processor;
}

/** The connector's id of a payment it made (EXTERNAL, live); undefined when it made none. */
export function connectorIdOf(payment: Payment): string | undefined {
  return (payment.details.resultDetails as Record<string, string> | undefined)?.ConnectorTxID1;
}

/** Where a registration keeps the id its connector gave it (EXTERNAL, live); never answered. */
export const CONNECTOR_REGISTRATION_ID = 'connectorRegistrationId';

/**
 * Where a registration keeps what its creation answered: the success code of its channel's mode
 * (000.100.110 INTERNAL, 000.100.112 EXTERNAL, 000.000.000 live) and the ndc. Its reads, its
 * deletion and its notifications answer the same (decisions: registrations answer like payments).
 */
export const REGISTRATION_ANSWER = 'registrationAnswer';

/** The code and ndc a registration answers with; the simulator's success for one stored before. */
export function registrationAnswerOf(r: Registration): { readonly code: string; readonly ndc?: string } {
  const kept = r.details[REGISTRATION_ANSWER] as { code?: unknown; ndc?: unknown } | undefined;
  return {
    code: typeof kept?.code === 'string' ? kept.code : ResultCodes.SUCCESS_INTERNAL,
    ...(typeof kept?.ndc === 'string' ? { ndc: kept.ndc } : {}),
  };
}

/** The connector's id of a registration made through it; undefined for a simulated one. */
export function connectorRegistrationIdOf(r: Registration): string | undefined {
  const id = r.details[CONNECTOR_REGISTRATION_ID];
  return typeof id === 'string' ? id : undefined;
}

/**
 * A payment's details with what the processor said about the card, the risk and the shopper's
 * authentication (a connector's card.type, card.level, card.issuer.* …, risk.score, and its 3-D
 * Secure results threeDSecure.eci, authenticationStatus …): merged into the echoed groups,
 * answered beside the gateway's own bin and last4Digits and over the gateway's own risk score.
 * The details as they were when the processor said none of it.
 */
export function withProcessorDetails(
  details: Record<string, unknown>,
  decision: Pick<Decision, 'card' | 'risk' | 'threeDSecure'>,
): Record<string, unknown> {
  if (decision.card === undefined && decision.risk === undefined && decision.threeDSecure === undefined)
    return details;
  const group = (name: string) => (details[name] ?? {}) as Record<string, unknown>;
  return {
    ...details,
    ...(decision.card === undefined ? {} : { card: { ...group('card'), ...decision.card } }),
    ...(decision.risk === undefined ? {} : { risk: { ...group('risk'), ...decision.risk } }),
    ...(decision.threeDSecure === undefined
      ? {}
      : { threeDSecure: { ...group('threeDSecure'), ...decision.threeDSecure } }),
  };
}
